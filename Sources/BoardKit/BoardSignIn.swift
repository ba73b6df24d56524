import Foundation

/// Before the screen: who the board posts as. It signs in with the learner's Lesson 9 `signIn`, with the email and
/// password of the command line or asked for on the terminal (the password without echo, and never printed). A
/// refusal shows what the learner's code threw and asks again; given on the command line, it ends the board.
public enum BoardSignIn {
    public enum Outcome: Equatable {
        /// Nowhere to sign in (`--url`), or a script without `--email`: posts are a guest's, as before Lesson 9.
        case none
        /// The user entered no email: posts are a guest's, through Lesson 1.
        case guest
        case signedIn(BoardUser)
        /// The learner's `signIn` is still the stub: `NotImplemented` for this section.
        case notStarted(section: String)

        public var user: BoardUser? {
            if case .signedIn(let user) = self { return user }
            return nil
        }
    }

    /// The terminal, or a test's script of answers.
    public struct Prompter {
        /// Whether there is someone to ask: false in a pipe, where only `--email/--password` can sign in.
        public var canAsk: Bool
        public var ask: (_ prompt: String) -> String?
        public var askHidden: (_ prompt: String) -> String?
        public var say: (String) -> Void

        public init(canAsk: Bool, ask: @escaping (String) -> String?, askHidden: @escaping (String) -> String?,
                    say: @escaping (String) -> Void) {
            self.canAsk = canAsk
            self.ask = ask
            self.askHidden = askHidden
            self.say = say
        }

        public static let terminal = Prompter(
            canAsk: Terminal.isInteractive,
            ask: { prompt in Terminal.write(prompt); return readLine() },
            askHidden: { prompt in Terminal.write(prompt); return Terminal.readHiddenLine() },
            say: { fputs($0 + "\n", stderr) })  // standard output is a script's result
    }

    /// Signs in as the options and the prompter say. A failure: the learner's code refused a sign-in that the command
    /// line gave (or there was no terminal to ask for a password); the board says so and exits.
    public static func run(_ options: BoardOptions, service: SignInService?,
                           prompter: Prompter) -> Result<Outcome, BoardFailure> {
        guard let service else { return .success(.none) }
        let screen = options.command == .interactive
        let asks = prompter.canAsk && options.password == nil
        guard options.email != nil || (screen && prompter.canAsk) else { return .success(.none) }
        if screen, options.email == nil {
            prompter.say("Sign in with your Lesson 9 signIn. The embedded emulator's account: "
                + "\(EmbeddedServer.sampleAccount.email), password \(EmbeddedServer.sampleAccount.password).")
            prompter.say("Enter no email to go on as a guest (your posts then go through Lesson 1).")
        }
        while true {
            guard let email = options.email ?? prompter.ask("Email: "), !email.isEmpty else { return .success(.guest) }
            let password: String
            if let given = options.password {
                password = given
            } else if asks {
                guard let typed = prompter.askHidden("Password (not shown): ") else { return .success(.guest) }
                password = typed
            } else {
                return .failure(BoardFailure(.signIn, .other("--email needs --password when there is no terminal to ask on")))
            }
            switch wait({ service.signIn(email: email, password: password, completion: $0) }) {
            case .success(let user):
                prompter.say("Signed in as \(user.email).")
                return .success(.signedIn(user))
            case .failure(let failure):
                // The screen goes on without it, as before Lesson 9; a script asked to post as someone stops.
                if case .notStarted(let section) = failure.problem, screen {
                    prompter.say(failure.statusText + ": until then you post as a guest, through Lesson 1.")
                    return .success(.notStarted(section: section))
                }
                guard asks else { return .failure(failure) }
                prompter.say(failure.statusText + ". Try again" + (options.email == nil ? ", or enter no email to go on as a guest." : "."))
            }
        }
    }

    /// The answer of an asynchronous call, waited for on this thread while the main queue goes on running (the
    /// learner's code may hop to it). `LearnerCall`'s time limit makes sure an answer comes.
    static func wait<Value>(_ call: (@escaping (Value) -> Void) -> Void) -> Value {
        let lock = NSLock()
        var answer: Value?
        call { value in lock.lock(); answer = answer ?? value; lock.unlock() }
        while true {
            lock.lock()
            let value = answer
            lock.unlock()
            if let value { return value }
            RunLoop.main.run(until: Date().addingTimeInterval(0.02))
        }
    }
}
