import Foundation

/// lessons.json: the kit's one description of its lessons, exercises, points and hints, in course order.
/// The lab command, the results recorder and CI read it; nothing else repeats it.
public struct LessonCatalog: Codable, Equatable {
    public var lessons: [Lesson]
    /// Where each graded test is declared, "Class/test_name" → its rank in its file (read from Tests/ by `load`):
    /// results list a lesson's failures in the order its author wrote the tests, simplest first.
    public var declarationOrder: [String: Int] = [:]
    /// Where each graded test is declared, "Class/test_name" → file and line (read from Tests/ by `load`).
    public var declarationPlaces: [String: TestPlace] = [:]

    enum CodingKeys: String, CodingKey { case lessons }

    public init(lessons: [Lesson]) { self.lessons = lessons }

    public struct Lesson: Codable, Equatable {
        /// The module and test-filter name: "Lesson1".
        public var name: String
        public var title: String
        /// LESSONS.md chapter number: "1" (sections are "1.3").
        public var chapter: String
        public var exercises: [Exercise]

        public init(name: String, title: String, chapter: String, exercises: [Exercise]) {
            self.name = name
            self.title = title
            self.chapter = chapter
            self.exercises = exercises
        }
    }

    public struct Exercise: Codable, Equatable {
        /// LESSONS.md section: "1.3".
        public var section: String
        /// As Swift spells it: "createMessageThread(title:completion:)".
        public var function: String
        /// Where the learner writes it: "Exercises/Lesson1/MessageThreadController.swift".
        public var file: String
        /// The XCTest class whose tests grade it.
        public var testClass: String
        /// What each passing test earns; 1 when absent.
        public var pointsPerTest: Double?
        /// Progressive hints, gentlest first.
        public var hints: [String]

        public init(section: String, function: String, file: String, testClass: String, pointsPerTest: Double?, hints: [String]) {
            self.section = section
            self.function = function
            self.file = file
            self.testClass = testClass
            self.pointsPerTest = pointsPerTest
            self.hints = hints
        }

        public var points: Double { pointsPerTest ?? 1 }
    }

    public struct CatalogError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// What makes the catalog itself contradictory, whatever else the kit holds: a lesson listed twice, a
    /// `pointsPerTest` of 0 or less, two exercises of a lesson with one section or one test class. Results, hints and
    /// the class report find a lesson by its name and an exercise by its section and its test class, so each must be
    /// one; and a negative `pointsPerTest` graded learners -20/0. `lab lint` lists these with the rest, and every
    /// other `lab` command refuses the kit (`Kit`) rather than grade with them: `lab grade` stopped with a stack trace
    /// on a lesson listed twice.
    public var contradictions: [String] {
        var problems: [String] = []
        let names = lessons.map(\.name)
        for duplicate in Set(names.filter { name in names.filter { $0 == name }.count > 1 }).sorted() {
            problems.append("\(duplicate) is listed twice")
        }
        for lesson in lessons {
            for exercise in lesson.exercises {
                if let points = exercise.pointsPerTest, !(points > 0 && points.isFinite) {
                    problems.append("\(lesson.name) §\(exercise.section) \(exercise.function): pointsPerTest is \(points); it must be above 0 (leave it out for 1 point a test)")
                }
            }
            for (section, count) in Dictionary(lesson.exercises.map { ($0.section, 1) }, uniquingKeysWith: +).sorted(by: { $0.key < $1.key }) where count > 1 {
                problems.append("\(lesson.name): \(count) exercises are §\(section); each needs a section of its own")
            }
            for (testClass, count) in Dictionary(lesson.exercises.map { ($0.testClass, 1) }, uniquingKeysWith: +).sorted(by: { $0.key < $1.key }) where count > 1 {
                let sections = lesson.exercises.filter { $0.testClass == testClass }.map { "§\($0.section)" }.joined(separator: ", ")
                problems.append("\(lesson.name): \(testClass) grades \(count) exercises (\(sections)); only the first would get its tests")
            }
        }
        return problems
    }

    /// The catalog in `file`, or an error naming the file and what is wrong with it. `scanningTests`: with the order
    /// and places of the tests declared in the kit's Tests/ (`declarationOrder`, `declarationPlaces`).
    public static func load(from file: URL, scanningTests: Bool = true) throws -> LessonCatalog {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CatalogError(description: "\(file.path) not found: the kit's lessons.json is missing")
        }
        do {
            var catalog = try JSONDecoder().decode(LessonCatalog.self, from: data)
            if scanningTests {
                let declared = TestDeclarations.scan(testsFolder: file.deletingLastPathComponent().appendingPathComponent("Tests"))
                catalog.declarationOrder = declared.order
                catalog.declarationPlaces = declared.places
            }
            return catalog
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let place = Self.whereJSONBreaks(data) {
                throw CatalogError(description: "\(file.lastPathComponent) is not valid JSON: \(place)")
            }
            throw CatalogError(description: "\(file.lastPathComponent) is malformed: \(Self.explain(error))")
        } catch {
            throw CatalogError(description: "\(file.lastPathComponent) is not valid JSON: \(error)")
        }
    }

    /// The lesson a learner means by "Lesson3", "lesson3", "Lesson 3", "L3", "l3", "3" or "03"; nil when there is none.
    public func lesson(named name: String) -> Lesson? {
        let wanted = Self.comparable(name)
        guard !wanted.isEmpty else { return nil }
        if let lesson = lessons.first(where: { Self.comparable($0.name) == wanted }) { return lesson }
        var chapter = Substring(wanted)
        if chapter.hasPrefix("lesson") { chapter = chapter.dropFirst("lesson".count) } else if chapter.hasPrefix("l") { chapter = chapter.dropFirst() }
        guard !chapter.isEmpty else { return nil }
        return lessons.first { $0.chapter.lowercased() == chapter || (Int(chapter) != nil && Int(chapter) == Int($0.chapter)) }
    }

    /// The exercise at LESSONS.md section `section` ("1.3" or "§1.3") and its lesson; nil when there is none.
    public func exercise(forSection section: String) -> (lesson: Lesson, exercise: Exercise)? {
        let wanted = section.hasPrefix("§") ? String(section.dropFirst()) : section
        for lesson in lessons {
            if let exercise = lesson.exercises.first(where: { $0.section == wanted }) { return (lesson, exercise) }
        }
        return nil
    }

    /// A name as lesson lookup compares it: lower case, without spaces, `-` or `_` ("Lesson 1" and "lesson_1" are "lesson1").
    public static func comparable(_ name: String) -> String {
        String(name.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" })
    }

    /// The lesson and exercise graded by `testClass`.
    public func exercise(forTestClass testClass: String) -> (lesson: Lesson, exercise: Exercise)? {
        for lesson in lessons {
            if let exercise = lesson.exercises.first(where: { $0.testClass == testClass }) { return (lesson, exercise) }
        }
        return nil
    }

    /// "Lesson1, Lesson2, …", for error messages.
    public var lessonNames: String { lessons.map(\.name).joined(separator: ", ") }

    /// Where `data` stops being JSON, as "line 3, column 7" (JSONDecoder says only "not valid JSON"; Foundation's
    /// parser says "around character 41" on Linux, and a line and column elsewhere); nil when it parses.
    static func whereJSONBreaks(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            guard let found = said.range(of: #"character [0-9]+"#, options: .regularExpression),
                  let offset = Int(said[found].dropFirst("character ".count)) else { return said.isEmpty ? nil : said }
            let before = Array(data.prefix(offset))
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "line \(line), column \(column) (\(said))"
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key `\(key.stringValue)` at \(path(context).isEmpty ? "the top level" : path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context).isEmpty ? "the top level" : path(context))"
        @unknown default: return "\(error)"
        }
    }
}

extension LessonCatalog {
    /// lessons.json at the kit's root, found from this file's place in the kit.
    public static let defaultFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("lessons.json")
}
