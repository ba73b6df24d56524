import Foundation

/// A board feature and the exercise whose code it runs: what the status line names when it fails.
public enum BoardFeature: String, CaseIterable {
    case threadList = "thread list"
    case newThread = "new thread"
    case post = "post"
    case live = "live updates"
    case signIn = "sign-in"
    /// A post as the signed-in user, through Lesson 9 (a guest's post is `.post`, through Lesson 1).
    case signedInPost = "post as you"
    case newestPage = "newest page"
    case olderPage = "load older"

    public var lesson: Int { Int(section.prefix { $0 != "." })! }

    /// The LESSONS.md section of the exercise.
    public var section: String {
        switch self {
        case .threadList: return "4.6"
        case .newThread: return "1.3"
        case .post: return "1.4"
        case .live: return "8.4"
        case .signIn: return "9.3"
        case .signedInPost: return "9.4"
        case .newestPage: return "10.3"
        case .olderPage: return "10.4"
        }
    }

    /// The learner's function that does the work.
    public var function: String {
        switch self {
        case .threadList: return "fetchMessageThreads"
        case .newThread: return "createMessageThread"
        case .post: return "createMessage"
        case .live: return "ForumListener"
        case .signIn: return "signIn"
        case .signedInPost: return "database"
        case .newestPage: return "newestPage"
        case .olderPage: return "olderPage"
        }
    }

    /// "Lesson 1 §1.3"
    public var place: String { "Lesson \(lesson) §\(section)" }
}

/// Why a feature did not work, in words for the status line: never a stack trace.
public struct BoardFailure: Error, Equatable {
    public enum Problem: Equatable {
        /// The learner's function is still the stub: it passed `NotImplemented` (for this section).
        case notStarted(section: String)
        /// The server answered with a status outside 200...299 (Firebase's `error` text when it sent one).
        case httpStatus(Int, message: String)
        /// No HTTP answer at all: a `URLError`.
        case transport(URLError.Code)
        /// The answer arrived but did not decode.
        case undecodable(String)
        /// The completion was not called in time: a slow server, or a path that never calls it.
        case noAnswer(seconds: TimeInterval)
        case other(String)
    }

    public let feature: BoardFeature
    public let problem: Problem

    public init(_ feature: BoardFeature, _ problem: Problem) {
        self.feature = feature
        self.problem = problem
    }

    /// One line: what failed, why, and where LESSONS.md explains it.
    public var statusText: String {
        let name = feature.rawValue
        switch problem {
        case .notStarted(let section):
            return "\(name): finish Lesson \(section.prefix { $0 != "." }) §\(section) (\(feature.function))"
        case .httpStatus(let status, let message):
            return "\(name): the server answered \(status)\(message.isEmpty ? "" : " \(message)") — \(feature.place)"
        case .transport(let code):
            return "\(name): \(Self.describe(code)) — \(feature.place)"
        case .undecodable(let reason):
            return "\(name): the answer did not decode (\(reason)) — \(feature.place)"
        case .noAnswer(let seconds):
            let wait = seconds >= 1 ? "\(Int(seconds.rounded())) s" : "\(Int(seconds * 1000)) ms"
            return "\(name): no answer in \(wait): a slow server, or \(feature.function) never "
                + "calls completion — \(feature.place), §0.4"
        case .other(let text):
            return "\(name): \(text) — \(feature.place)"
        }
    }

    static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "could not connect to the server (is it running?)"
        case .cannotFindHost, .dnsLookupFailed: return "server not found"
        case .notConnectedToInternet: return "not connected to the internet"
        case .networkConnectionLost: return "the connection was lost"
        case .timedOut: return "the request timed out"
        case .secureConnectionFailed, .serverCertificateUntrusted: return "the secure connection failed"
        case .badURL, .unsupportedURL: return "the URL is not usable"
        default: return "network error \(code.rawValue)"
        }
    }
}
