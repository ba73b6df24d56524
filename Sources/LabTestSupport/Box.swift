import Foundation

/// A value written on one thread (a task, a session's queue, a timer) and read on another (the test, after its
/// wait): nil until set.
public final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    public init() {}

    public func set(_ newValue: Value) { lock.lock(); value = newValue; lock.unlock() }
    public func get() -> Value? { lock.lock(); defer { lock.unlock() }; return value }

    /// Changes the value (starting from `initial` while unset) in one step, and returns what it became: a read and a
    /// write from two threads at once cannot lose one change.
    @discardableResult
    public func update(startingFrom initial: Value, _ change: (inout Value) -> Void) -> Value {
        lock.lock(); defer { lock.unlock() }
        var changed = value ?? initial
        change(&changed)
        value = changed
        return changed
    }

    /// Changes the set (starting from an empty one) in one step.
    public func update<Element>(_ change: (inout Value) -> Void) where Value == Set<Element> {
        update(startingFrom: [], change)
    }
}
