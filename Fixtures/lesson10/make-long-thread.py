# Builds Fixtures/lesson10/long-thread.json: 55 messages of one thread, push IDs by Firebase's algorithm.
import json, random
ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
rng = random.Random(10)
def push_id(ms, rand):
    t = ""
    for _ in range(8):
        t = ALPHABET[ms % 64] + t; ms //= 64
    return t + "".join(ALPHABET[i] for i in rand)
senders = ["Ana", "Ben", "Chen", "Dana", "Eli"]
start = 1793610000000  # 2026-11-02T08:20:00Z
# 1-based positions that share the previous message's timestamp: 16 ties 15 (boundary of pages 2 and 3),
# 36 and 37 tie 35 (boundary of pages 1 and 2), 51 ties 50 (inside the newest page)
ties = {16, 36, 37, 51}
messages = {}
ms = start; last_ms = None; rand = None
for n in range(1, 56):
    if n > 1 and n not in ties:
        ms += rng.randint(20, 400) * 1000 + rng.randint(0, 999)
    if ms == last_ms:
        i = 11
        while rand[i] == 63: rand[i] = 0; i -= 1
        rand[i] += 1
    else:
        rand = [rng.randrange(64) for _ in range(12)]
    last_ms = ms
    key = push_id(ms, rand)
    messages[key] = {"sender": senders[(n * 3) % 5], "text": f"Message {n} of the long thread" + (" — same millisecond as the one before" if n in ties else ""), "timestamp": ms}
keys = list(messages)
assert keys == sorted(keys)
print(json.dumps({"t1": {"title": "Pages and races", "messages": messages}}, indent=2, ensure_ascii=False))
