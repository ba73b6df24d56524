import Foundation
import LabMetadata

/// A one-lesson catalog of two exercises (1 point per test, then 2) and results of its tests, for the tests of the
/// results formats.
enum SampleResults {
    static let catalog = LessonCatalog(lessons: [
        .init(name: "Lesson1", title: "One", chapter: "1", exercises: [
            .init(section: "1.3", function: "a()", file: "A.swift", testClass: "ATests", pointsPerTest: nil, hints: ["h"]),
            .init(section: "1.4", function: "b()", file: "B.swift", testClass: "BTests", pointsPerTest: 2, hints: ["h"]),
        ]),
    ])

    /// Test `name` of `testClass` (ATests or BTests), declared at line 7 of its file when `placed`.
    static func result(_ name: String, _ testClass: String, _ outcome: TestResult.Outcome, placed: Bool = false) -> TestResult {
        let (lesson, exercise) = catalog.exercise(forTestClass: testClass)!
        return TestResult(name: name, testClass: testClass, testModule: "Lesson1Tests", outcome: outcome,
                          message: outcome == .passed ? nil : "why", lesson: lesson, exercise: exercise,
                          place: placed ? TestPlace(file: "Tests/Lesson1Tests/\(testClass).swift", line: 7) : nil)
    }
}
