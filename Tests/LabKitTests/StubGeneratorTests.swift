import XCTest
import LabKit

final class StubGeneratorTests: XCTestCase {
    func test_dropsTheSolutionBlock_andUncommentsStubLines_keepingIndentation() throws {
        let solution = """
            func f(completion: (Error?) -> Void) {
                // Step 1: a TODO for the learner stays.
                // BEGIN SOLUTION
                completion(nil)
                // END SOLUTION
                // STUB: completion(NotImplemented("f(completion:)", section: "1.3"))
            }
            """
        let stub = try StubGenerator.stub(fromSolution: solution, file: "F.swift")
        XCTAssertEqual(stub, """
            func f(completion: (Error?) -> Void) {
                // Step 1: a TODO for the learner stays.
                completion(NotImplemented("f(completion:)", section: "1.3"))
            }
            """)
    }

    func test_copiesAFileWithoutMarkersUnchanged() throws {
        let given = "struct Given {}\n// STUBBORN comments are not markers\n"
        XCTAssertEqual(try StubGenerator.stub(fromSolution: given, file: "G.swift"), given)
    }

    func test_anEmptyStubLineBecomesAnEmptyLine() throws {
        XCTAssertEqual(try StubGenerator.stub(fromSolution: "a\n    // STUB:\nb", file: "E.swift"), "a\n\nb")
    }

    func test_rejectsAnUnclosedBlock_namingItsLine() {
        XCTAssertThrowsError(try StubGenerator.stub(fromSolution: "a\n// BEGIN SOLUTION\nb", file: "U.swift")) { error in
            XCTAssertEqual((error as? StubGenerator.MarkerError)?.line, 2)
            XCTAssertTrue("\(error)".contains("never closed"), "\(error)")
        }
    }

    func test_rejectsNestedBlocks_strayEnds_andStubLinesInsideASolution() {
        let cases = [
            ("// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION", 2, "inside the block opened at line 1"),
            ("x\n// END SOLUTION", 2, "without a `// BEGIN SOLUTION`"),
            ("// BEGIN SOLUTION\n// STUB: x\n// END SOLUTION", 2, "inside the solution block"),
        ]
        for (text, line, problem) in cases {
            XCTAssertThrowsError(try StubGenerator.stub(fromSolution: text, file: "N.swift")) { error in
                XCTAssertEqual((error as? StubGenerator.MarkerError)?.line, line, "\(error)")
                XCTAssertTrue("\(error)".contains(problem), "expected “\(problem)” in: \(error)")
                XCTAssertTrue("\(error)".hasPrefix("N.swift:\(line):"), "the error should name the file and line: \(error)")
            }
        }
    }
}
