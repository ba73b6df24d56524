import Foundation

/// The files `lab new-lesson` writes for a new lesson: a working example of one exercise in every place a lesson
/// needs, for the instructor to replace. The example reads one value from the emulated Firebase database
/// (`GreetingClient.fetchGreeting(completion:)`), so its test shows the kit's way: a `LabTestCase` per lesson, the
/// emulator injected, `awaitCompletion`, `onlyRequest`, messages that teach and name their section.
struct LessonScaffold {
    /// "Lesson9".
    let name: String
    /// "9".
    let chapter: String
    let title: String

    var section: String { "\(chapter).1" }
    let function = "fetchGreeting(completion:)"
    let testClass = "FetchGreetingTests"
    var exerciseFile: String { "Exercises/\(name)/GreetingClient.swift" }
    var fixtures: String { LessonPlaces.fixtures(of: name) }

    /// Path relative to the kit → contents, for the files that are new.
    var newFiles: [String: String] {
        [
            "Solutions/\(name)/GreetingClient.swift": solution,
            "Tests/\(name)Tests/\(name)TestCase.swift": testCase,
            "Tests/\(name)Tests/\(testClass).swift": exampleTest,
            "\(fixtures)/database.json": "{\n  \"greeting\": \"Hello, REST\"\n}\n",
            "\(fixtures)/README.md": fixturesReadme,
            LessonPlaces.mutants(of: name): mutantCatalog,
        ]
    }

    var solution: String {
        """
        // \(name) — \(title). You write the parts marked EXERCISE; LESSONS.md §\(chapter) explains them.
        // (Made by `lab new-lesson` as an example of one exercise: replace it with the lesson's own code.)
        import Foundation
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif
        import LabSupport

        /// Reads the greeting stored in a Firebase Realtime Database, at `<baseURL>/greeting.json`.
        public final class GreetingClient {
            public let baseURL: URL
            public let session: URLSession

            /// The tests inject the emulator's URL and session; an app keeps the defaults.
            public init(baseURL: URL = URL(string: "https://lab-kit-example.firebaseio.com/")!, session: URLSession = .shared) {
                self.baseURL = baseURL
                self.session = session
            }

            /// EXERCISE \(section) — GET `<baseURL>/greeting.json` through `session`, and pass the greeting (a JSON
            /// string) to `completion`, or the error that stopped it. Replace the `NotImplemented` line.
            public func fetchGreeting(completion: @escaping (Result<String, Error>) -> Void) {
                // BEGIN SOLUTION
                let url = baseURL.appendingPathComponent("greeting").appendingPathExtension("json")
                session.dataTask(with: url) { data, _, error in
                    if let error = error { return completion(.failure(error)) }
                    do {
                        completion(.success(try JSONDecoder().decode(String.self, from: data ?? Data())))
                    } catch {
                        completion(.failure(error))
                    }
                }.resume()
                // END SOLUTION
                // STUB: completion(.failure(NotImplemented("\(function)", section: "\(section)")))
            }
        }

        """
    }

    var testCase: String {
        """
        import Foundation
        import XCTest
        import FirebaseEmulator
        import LabTestSupport
        import \(name)

        /// \(name)'s tests share this: an emulator loaded with \(fixtures)/database.json, a client pointed at it, and
        /// a way to call the learner's function that waits for its completion (and reports a stub as "not started").
        class \(name)TestCase: LabTestCase {
            static let fetchGreeting = Exercise("\(function)", section: "\(section)")

            var emulator: FirebaseEmulator!
            var client: GreetingClient!

            override func setUpWithError() throws {
                try super.setUpWithError()
                emulator = FirebaseEmulator(database: try Fixtures.json("\(name.lowercased())/database.json"))
                client = GreetingClient(baseURL: emulator.baseURL, session: emulator.session)
            }

            override func tearDown() {
                emulator?.invalidate()
                super.tearDown()
            }

            /// Calls `\(function)` and waits for its completion: what it was called with.
            func fetchGreeting(file: StaticString = #filePath, line: UInt = #line) throws -> Result<String, Error> {
                let client = self.client!
                return try awaitCompletion(of: Self.fetchGreeting, on: emulator, file: file, line: line) { done in
                    client.fetchGreeting(completion: done)
                }
            }
        }

        """
    }

    var exampleTest: String {
        """
        import Foundation
        import XCTest
        import FirebaseEmulator
        import LabTestSupport
        import \(name)

        /// Exercise \(section): `\(function)` reads the greeting with one GET. One class per exercise (lessons.json's
        /// `testClass`); its tests run from the simplest behaviour to the most specific: fix the first failure first.
        final class \(testClass): \(name)TestCase {
            let exercise = \(name)TestCase.fetchGreeting

            func test_fetchGreeting_getsTheStoredGreeting() throws {
                let result = try fetchGreeting()
                let request = try onlyRequest(from: exercise, on: emulator)
                XCTAssertEqual(request.method, "GET", \"\"\"
                    fetchGreeting sent \\(request.summary). Reading is a GET: it changes nothing on the server. \\
                    See LESSONS.md §\(section).
                    \"\"\")
                switch result {
                case .success(let greeting):
                    XCTAssertEqual(greeting, "Hello, REST", \"\"\"
                        fetchGreeting passed "\\(greeting)" to its completion; the database holds "Hello, REST" at /greeting. \\
                        Request: \\(request.summary). See LESSONS.md §\(section).
                        \"\"\")
                case .failure(let error):
                    XCTFail(\"\"\"
                        fetchGreeting passed an error to its completion: \\(oneLine(error)). Request: \\(request.summary). \\
                        The body is a JSON string: decode it as `String`. See LESSONS.md §\(section).
                        \"\"\")
                }
            }
        }

        """
    }

    var fixturesReadme: String {
        """
        # \(name)'s fixtures

        What \(name)'s tests load, with each file's format and provenance.

        | File | Content and provenance |
        |---|---|
        | `database.json` | A database export (what `GET /.json` returns): the greeting of `lab new-lesson`'s example exercise, written by hand. Replace it with the lesson's own data, recorded from Firebase where you can. |

        """
    }

    var mutantCatalog: String {
        """
        {
          "lesson": "\(name)",
          "about": "Realistic wrong and correct-but-different solutions of \(name) (README § Measuring the tests): none yet.",
          "mutants": []
        }

        """
    }

    /// The entry for lessons.json, indented to sit in its `lessons` array.
    var catalogEntry: String {
        let hint = "GET <baseURL>/greeting.json with `session.dataTask(with:)` and `resume()` it; in its closure, pass a transport error on, else decode the body with `JSONDecoder().decode(String.self, from:)` and pass `.success(greeting)` to completion."
        return """
                {
                  "name": \(json(name)),
                  "title": \(json(title)),
                  "chapter": \(json(chapter)),
                  "exercises": [
                    {
                      "section": \(json(section)),
                      "function": \(json(function)),
                      "file": \(json(exerciseFile)),
                      "testClass": \(json(testClass)),
                      "hints": [
                        \(json(hint))
                      ]
                    }
                  ]
                }
            """
    }

    /// The chapter skeleton appended to LESSONS.md.
    var chapterText: String {
        """

        ## \(chapter). \(title)
        What this lesson teaches, and why a client needs it. (Written by `lab new-lesson`: replace each paragraph of this
        chapter; keep a `### \(chapter).M` heading for every exercise in lessons.json.)

        ### \(section) Exercise: `\(function)`
        Open `\(exerciseFile)`: `fetchGreeting` GETs `<baseURL>/greeting.json` through the injected `session` and passes
        the greeting to its completion. Check it with:
        ```sh
        swift test --disable-swift-testing --filter \(name)Tests
        swift run lab check \(name)
        ```

        """
    }

    private func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    }
}
