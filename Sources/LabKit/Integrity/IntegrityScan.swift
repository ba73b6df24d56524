import Foundation

/// What `lab grade` refuses in a learner's code before building it: the few things no exercise needs and through
/// which code could reach the grader rather than the exercise. A lesson whose code does one of them is not graded
/// (its tests fail, the report says why); an honest solution never trips it.
/// - imports other than Foundation and friends: XCTest (observers that rewrite verdicts), the kit's own modules;
/// - escape hatches: calling symbols by name, code that runs after the tests end, starting other processes;
/// - a declaration that shadows a name the tests use from Foundation, XCTest or the kit (a top-level
///   `XCTAssertEqual`, an `extension HTTPURLResponse { var statusCode … }`): Swift lets a module's declarations
///   win over those of the modules it imports, so the tests would call the learner's version.
struct IntegrityScan {
    /// Synchronization is the standard library's own (`Mutex`, `Atomic`): a correct way to guard shared state.
    /// Observation is the toolchain's (`@Observable`, the model classes of SwiftUI apps): a correct Lesson 2 model
    /// (thread-observable-with-coding-keys) may use it.
    static let allowedImports: Set<String> = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch",
                                              "LabSupport", "Combine", "os", "Swift", "Synchronization", "Observation"]
    static let forbiddenWords: [String: String] = [
        "@_silgen_name": "calls a function by its symbol name", "@_cdecl": "exports a C symbol",
        "@_extern": "calls a function by its symbol name", "dlsym": "looks up symbols at run time",
        "dlopen": "loads code at run time", "atexit": "runs code after the tests have ended",
        "XCTestObservation": "watches the tests", "XCTestObservationCenter": "watches the tests",
        "fork": "starts other processes", "vfork": "starts other processes", "posix_spawn": "starts other processes",
        "posix_spawnp": "starts other processes", "system": "starts other processes", "execv": "starts other processes",
        "execve": "starts other processes", "execvp": "starts other processes", "Process": "starts other processes",
        "NSTask": "starts other processes", "popen": "starts other processes",
    ]
    /// Free functions of the standard library and Foundation that tests call unqualified.
    static let globalFunctions: Set<String> = ["zip", "min", "max", "abs", "print", "precondition", "stride", "type", "repeatElement"]

    /// Names the tests use unqualified, from other modules: a learner's top-level declaration must not reuse them.
    let freeNames: Set<String>
    /// Members the tests use (`x.name`): a learner's extension of a type not of the lesson must not declare them.
    let memberNames: Set<String>
    /// Types the lesson itself declares: extending them is the learner's business.
    let lessonTypes: Set<String>

    /// `checkingDeclarations` false: only imports and escape hatches, for a Solutions/ that holds the stubs (a class's
    /// copy of the kit), which leave out what the learner declares: names the lesson owns would look like the tests'.
    init(kitRoot: URL, lesson: String, checkingDeclarations: Bool = true) {
        let tests = Self.tokens(under: kitRoot.appendingPathComponent("Tests/\(lesson)Tests"))
        let solution = Self.tokens(under: kitRoot.appendingPathComponent("Solutions/\(lesson)"))
        let declaredInTests = Set(Self.declarations(in: tests).map(\.name))
        let declaredInLesson = Set(Self.declarations(in: solution).map(\.name))
        lessonTypes = Set(Self.declarations(in: solution).filter(\.isType).map(\.name))
        freeNames = checkingDeclarations ? Set(tests.filter { token in
            !token.afterDot && (token.text.first?.isUppercase == true || token.text.hasPrefix("XCT") || Self.globalFunctions.contains(token.text))
        }.map(\.text)).subtracting(declaredInTests).subtracting(declaredInLesson) : []
        memberNames = checkingDeclarations ? Set(tests.filter(\.afterDot).map(\.text)) : []
    }

    /// "Exercises/Lesson1/X.swift:3: imports XCTest (…)" for each thing refused, in file and line order.
    func violations(in files: [String: Data], folder: String) -> [String] {
        files.keys.sorted().flatMap { path -> [String] in
            let tokens = SwiftTokens(String(decoding: files[path] ?? Data(), as: UTF8.self)).tokens
            return problems(in: tokens).map { "\(folder)/\(path):\($0.line): \($0.text)" }
        }
    }

    private func problems(in tokens: [SwiftTokens.Token]) -> [(line: Int, text: String)] {
        var found: [(Int, String)] = []
        for (index, token) in tokens.enumerated() {
            if token.text == "import", !token.afterDot, let module = Self.importedModule(tokens, after: index), !Self.allowedImports.contains(module) {
                found.append((token.line, "imports \(module) — graded code may import only Foundation, FoundationNetworking, Dispatch, Synchronization, Observation and LabSupport"))
            } else if let why = Self.forbiddenWords[token.text] {  // `Foundation.Process` too
                found.append((token.line, "uses `\(token.text)`, which \(why): no exercise needs it, and graded code may not"))
            }
        }
        // Only what the tests can see can replace what they use: they `import` the lesson without `@testable`, so an
        // internal or private helper (an iOS 13 `URLSession.data(for:)` of the learner's own) is their business.
        for declaration in Self.declarations(in: tokens) where declaration.reachesTheTests {
            if declaration.depth == 0, freeNames.contains(declaration.name) {
                found.append((declaration.line, "declares `\(declaration.name)`, a name the tests use from Foundation, XCTest or the kit: your declaration would replace it in the tests — rename it"))
            } else if declaration.depth == 1, let owner = declaration.extending, !lessonTypes.contains(owner), memberNames.contains(declaration.name) {
                found.append((declaration.line, "adds `\(declaration.name)` to \(owner), a member the tests use: your public version would replace it in the tests — rename it, or leave out `public` (an internal one serves your own code, Codable's synthesised code too, and stays out of the tests')"))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    struct Declaration {
        let name: String
        let line: Int
        let depth: Int
        let isType: Bool
        /// The type a top-level `extension` is extending, for declarations inside one.
        let extending: String?
        /// Visible outside the lesson's module (`public`, `open`, or in a `public extension` and not made private),
        /// or open to the Objective-C runtime (`@objc`, `dynamic`: on Apple platforms such a method replaces the
        /// system's at run time, whatever its access).
        var reachesTheTests = true
    }

    /// Modifiers that may stand before a declaration's keyword (attributes, `@…`, too): the run of them says its access.
    static let modifierWords: Set<String> = [
        "public", "open", "internal", "private", "fileprivate", "package", "static", "class", "final", "override",
        "mutating", "nonmutating", "dynamic", "nonisolated", "convenience", "required", "lazy", "weak", "unowned",
        "indirect", "consuming", "borrowing", "isolated", "optional", "set", "unsafe",
    ]

    /// The modifiers right before `tokens[index]`, at its depth (attribute arguments, a previous declaration's
    /// type or a body end the run).
    static func modifiers(before index: Int, in tokens: [SwiftTokens.Token]) -> Set<String> {
        var found: Set<String> = []
        var at = index - 1
        while at >= 0, tokens[at].depth == tokens[index].depth, !tokens[at].afterDot {
            let text = tokens[at].text
            guard text.hasPrefix("@") || modifierWords.contains(text) else { break }  // `@objc` is one token, any attribute too
            found.insert(text.hasPrefix("@") ? String(text.dropFirst()) : text)
            at -= 1
        }
        return found
    }

    static func reachesTheTests(_ modifiers: Set<String>, inPublicExtension: Bool) -> Bool {
        if !modifiers.isDisjoint(with: ["objc", "dynamic"]) { return true }
        if !modifiers.isDisjoint(with: ["public", "open"]) { return true }
        return inPublicExtension && modifiers.isDisjoint(with: ["private", "fileprivate", "internal", "package"])
    }

    static let declarationKeywords: Set<String> = ["func", "var", "let", "class", "struct", "enum", "protocol", "typealias", "actor", "case"]
    static let typeKeywords: Set<String> = ["class", "struct", "enum", "protocol", "typealias", "actor"]

    static func declarations(in tokens: [SwiftTokens.Token]) -> [Declaration] {
        var found: [Declaration] = []
        var extending: String?
        var extensionModifiers: Set<String> = []
        for (index, token) in tokens.enumerated() {
            if token.depth == 0, declarationKeywords.contains(token.text) { extending = nil; extensionModifiers = [] }
            if token.text == "extension", token.depth == 0, index + 1 < tokens.count {
                var last = index + 1  // `extension Foundation.URL`: the last part names the type
                while last + 1 < tokens.count, tokens[last + 1].afterDot { last += 1 }
                extending = tokens[last].text
                extensionModifiers = modifiers(before: index, in: tokens)
                continue
            }
            guard declarationKeywords.contains(token.text), !token.afterDot, index + 1 < tokens.count else { continue }
            let name = tokens[index + 1]
            guard name.line == token.line || name.depth == token.depth else { continue }
            var declaration = Declaration(name: name.text, line: name.line, depth: token.depth,
                                          isType: typeKeywords.contains(token.text), extending: token.depth >= 1 ? extending : nil)
            let inExtension = token.depth == 1 && extending != nil
            declaration.reachesTheTests = reachesTheTests(
                modifiers(before: index, in: tokens).union(inExtension ? extensionModifiers.intersection(["objc"]) : []),
                inPublicExtension: inExtension && !extensionModifiers.isDisjoint(with: ["public", "open"]))
            found.append(declaration)
        }
        return found
    }

    /// The module of `import X`, `import struct X.Y`, `@testable import X` — on one line or split over several.
    private static func importedModule(_ tokens: [SwiftTokens.Token], after index: Int) -> String? {
        var next = index + 1
        if next < tokens.count, ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(tokens[next].text) { next += 1 }
        guard next < tokens.count else { return nil }
        return tokens[next].text
    }

    private static func tokens(under folder: URL) -> [SwiftTokens.Token] {
        ((try? regularFiles(under: folder)) ?? []).filter { $0.hasSuffix(".swift") }.flatMap { path in
            SwiftTokens((try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)) ?? "").tokens
        }
    }
}
