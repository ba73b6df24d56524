import Foundation

/// `class-report.html`: the class report as one self-contained page — no script, no font, no file from elsewhere;
/// it reads offline in any browser. It shows where the class is stuck: the spread of scores per lesson, who passes
/// each exercise, the mistakes most learners make (with the LESSONS.md section to revisit), the learners whose
/// grading left notes for a human look, what changed since the last report, and each learner's first failures.
/// Every learner-derived text is escaped (`HTMLText`); the page is well-formed XML as well as HTML.
struct ClassReportPage {
    let summary: ClassSummary
    let changes: ClassChanges?
    /// LESSONS.md section → its heading ("1.1" → "PUT and POST: who chooses the key").
    let sectionTitles: [String: String]

    var html: String {
        var page = [Self.head]
        let graded = summary.learners.filter { $0.total != nil }.count
        page.append("<h1>Class report</h1>")
        page.append("<p class=\"lead\">\(summary.learners.count) learner\(summary.learners.count == 1 ? "" : "s"), \(graded) graded, on \(e(summary.gradedAt)). The same numbers as <code>class-report.csv</code>; this page adds where the class is stuck.</p>")
        page.append("<nav><a href=\"#changes\">Changes</a> · <a href=\"#scores\">Scores per lesson</a> · <a href=\"#exercises\">Exercises</a> · <a href=\"#mistakes\">Mistakes</a> · <a href=\"#notes\">For a human look</a> · <a href=\"#learners\">Learners</a></nav>")
        page.append(changesSection)
        page.append(scoresSection)
        page.append(exercisesSection)
        page.append(mistakesSection)
        page.append(notesSection)
        page.append(learnersSection)
        page.append("</body>\n</html>\n")
        return page.joined(separator: "\n")
    }

    private func e(_ text: String) -> String { HTMLText.escaped(text) }

    private func anchor(of learner: String) -> String {
        "learner-\((summary.learners.firstIndex { $0.name == learner } ?? 0) + 1)"
    }

    private func link(_ learner: String) -> String { "<a href=\"#\(anchor(of: learner))\">\(e(learner))</a>" }

    private func section(_ number: String) -> String {
        sectionTitles[number].map { "§\(e(number)) \(e($0))" } ?? "§\(e(number))"
    }

    private func percent(_ part: Int, of whole: Int) -> Int { whole == 0 ? 0 : Int((Double(part) * 100 / Double(whole)).rounded()) }

    private var changesSection: String {
        var lines = ["<section id=\"changes\">", "<h2>Changes since the last report</h2>"]
        guard let changes = changes else {
            lines.append("<p>This is the first report in this folder: the next grading shows who moved and which mistakes faded.</p></section>")
            return lines.joined(separator: "\n")
        }
        lines.append("<p>Since \(e(changes.since)).\(changes.isEmpty ? " Nothing changed." : "")</p>")
        if !changes.moved.isEmpty {
            lines.append("<h3>Who moved</h3><ul class=\"moved\">")
            for move in changes.moved {
                let detail = move.lessons.map { "\(e($0.lesson)) \(points($0.before)) → \(points($0.now))" }.joined(separator: ", ")
                let sign = move.now >= move.before ? "+" : "−"
                lines.append("<li data-learner=\"\(e(move.learner))\">\(link(move.learner)): \(points(move.before)) → \(points(move.now)) (\(sign)\(points(abs(move.now - move.before)))): \(detail)</li>")
            }
            lines.append("</ul>")
        }
        if !changes.joined.isEmpty { lines.append("<p>New: \(changes.joined.map(link).joined(separator: ", ")).</p>") }
        if !changes.left.isEmpty { lines.append("<p>Not in this grading: \(changes.left.map(e).joined(separator: ", ")).</p>") }
        if !changes.mistakes.isEmpty {
            lines.append("<h3>Mistakes that faded or spread</h3><ul class=\"mistake-changes\">")
            for change in changes.mistakes {
                let verb = change.now == 0 ? "gone" : change.faded ? "faded" : change.before == 0 ? "new" : "spread"
                lines.append("<li class=\"\(verb)\" data-key=\"\(e(change.mistake.key))\"><strong>\(verb)</strong>: \(change.before) → \(change.now) learner\(change.now == 1 ? "" : "s") — §\(e(change.mistake.exercise)) <code>\(e(change.mistake.test))</code>: \(e(change.mistake.clause))</li>")
            }
            lines.append("</ul>")
        }
        lines.append("</section>")
        return lines.joined(separator: "\n")
    }

    private var scoresSection: String {
        var lines = ["<section id=\"scores\">", "<h2>Scores per lesson</h2>", "<div class=\"charts\">"]
        for lesson in summary.lessons {
            let title = "\(lesson.name) (\(lesson.title)): learners per share of its \(points(lesson.maxScore)) points"
            lines.append("<figure data-lesson=\"\(e(lesson.name))\" data-max=\"\(points(lesson.maxScore))\">")
            lines.append(ScoreChart.svg(bands: lesson.bands, title: title))
            lines.append("<figcaption>\(e(lesson.name)) — \(e(lesson.title)) (\(lesson.bands.reduce(0, +)) graded, out of \(points(lesson.maxScore)))</figcaption></figure>")
        }
        lines.append("</div></section>")
        return lines.joined(separator: "\n")
    }

    private var exercisesSection: String {
        var lines = ["<section id=\"exercises\">", "<h2>Exercises: who passes</h2>",
                     "<table class=\"exercises\"><thead><tr><th>lesson</th><th>§</th><th>function</th><th>pass every test</th><th>not started</th><th>failing</th></tr></thead><tbody>"]
        for exercise in summary.exercises {
            let share = percent(exercise.passing, of: exercise.graded)
            lines.append("<tr data-exercise=\"\(e(exercise.lesson))§\(e(exercise.section))\" data-passing=\"\(exercise.passing)\" data-graded=\"\(exercise.graded)\"><td>\(e(exercise.lesson))</td><td>§\(e(exercise.section))</td><td><code>\(e(exercise.function))</code></td><td><span class=\"share\"><span style=\"width: \(share)%\"></span></span> \(exercise.passing) of \(exercise.graded) (\(share) %)</td><td>\(exercise.notStarted)</td><td>\(exercise.failing)</td></tr>")
        }
        lines.append("</tbody></table></section>")
        return lines.joined(separator: "\n")
    }

    private var mistakesSection: String {
        var lines = ["<section id=\"mistakes\">", "<h2>Mistakes the class makes</h2>",
                     "<p>Each learner's first failure in each exercise they started, grouped by what it names (the test and the message's first clause, its values left out), most common first.</p>"]
        if summary.mistakes.isEmpty { lines.append("<p>None: every exercise started passes.</p>") }
        lines.append("<ol class=\"mistakes\">")
        for mistake in summary.mistakes {
            let count = mistake.learners.count
            lines.append("<li data-key=\"\(e(mistake.key))\" data-learners=\"\(count)\"><strong>\(count) learner\(count == 1 ? "" : "s")</strong> — \(e(mistake.lesson)) §\(e(mistake.exercise)), <code>\(e(mistake.test))</code>: \(e(mistake.clause))")
            lines.append("<br/>Revisit LESSONS.md <span class=\"revisit\">\(section(mistake.revisit))</span>. Learners: \(mistake.learners.map(link).joined(separator: ", ")).")
            lines.append("<details><summary>An example message</summary><p class=\"message\">\(e(mistake.example))</p></details></li>")
        }
        lines.append("</ol></section>")
        return lines.joined(separator: "\n")
    }

    private var notesSection: String {
        let noted = summary.learners.filter { !$0.notes.isEmpty }
        var lines = ["<section id=\"notes\">", "<h2>For a human look</h2>",
                     "<p>Learners whose grading left notes: code refused, tests stopped or crashed, a lesson that does not compile, no sandbox, a copy that could not be graded.</p>"]
        if noted.isEmpty { lines.append("<p>None.</p>") }
        lines.append("<ul class=\"noted\">")
        for learner in noted {
            lines.append("<li data-learner=\"\(e(learner.name))\">\(link(learner.name))<ul>" + learner.notes.map { "<li>\(e($0))</li>" }.joined() + "</ul></li>")
        }
        lines.append("</ul></section>")
        return lines.joined(separator: "\n")
    }

    private var learnersSection: String {
        let lessons = summary.lessons
        var lines = ["<section id=\"learners\">", "<h2>Learners</h2>", "<table class=\"learners\"><thead><tr><th>learner</th>"
                        + lessons.map { "<th>\(e($0.name))</th>" }.joined() + "<th>total</th><th>max</th><th>notes</th></tr></thead><tbody>"]
        for learner in summary.learners {
            let cells = lessons.map { lesson in
                "<td data-lesson=\"\(e(lesson.name))\">\(learner.scores[lesson.name].map(points) ?? "")</td>"
            }.joined()
            lines.append("<tr data-learner=\"\(e(learner.name))\"><td>\(link(learner.name))</td>\(cells)<td data-total=\"\">\(learner.total.map(points) ?? "")</td><td data-max=\"\">\(learner.maxScore.map(points) ?? "")</td><td>\(learner.notes.count)</td></tr>")
        }
        lines.append("</tbody></table>")
        for learner in summary.learners {
            lines.append("<article class=\"learner\" id=\"\(anchor(of: learner.name))\" data-learner=\"\(e(learner.name))\"><h3>\(e(learner.name)) <small>\(learner.total.map { "\(points($0)) of \(points(learner.maxScore ?? 0))" } ?? "not graded")</small></h3>")
            if !learner.notes.isEmpty { lines.append("<ul class=\"notes\">" + learner.notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>") }
            if learner.total != nil && learner.firstFailures.isEmpty { lines.append("<p>Every test passes.</p>") }
            let failed = learner.firstFailures.filter { $0.outcome == "failed" }
            let notStarted = learner.firstFailures.filter { $0.outcome != "failed" }.map { "§" + e($0.section) }
            if !notStarted.isEmpty { lines.append("<p class=\"not-started\">Not started: \(notStarted.joined(separator: ", ")).</p>") }
            if !failed.isEmpty {
                lines.append("<table class=\"first-failures\"><thead><tr><th>§</th><th>first failing test</th><th>message</th></tr></thead><tbody>")
                for failure in failed {
                    lines.append("<tr class=\"failed\" data-section=\"\(e(failure.section))\"><td>\(section(failure.section))</td><td><code>\(e(failure.test))</code></td><td class=\"message\">\(e(failure.message))</td></tr>")
                }
                lines.append("</tbody></table>")
            }
            lines.append("<p><a href=\"#learners\">↑ all learners</a></p></article>")
        }
        lines.append("</section>")
        return lines.joined(separator: "\n")
    }

    /// The page's head and style. The style has no `<`, `>` or `&`: the page stays well-formed XML.
    private static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>Class report</title>
        <style>
        body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #1d1d1f; line-height: 1.4; }
        h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
        nav a { margin: 0 0.2em; } code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
        table { border-collapse: collapse; margin: 0.5em 0; } th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
        thead th { background: #f3f3f5; } .learners td { text-align: right; } .learners td:first-child { text-align: left; }
        .charts { display: flex; flex-wrap: wrap; gap: 1em; } figure { margin: 0; border: 1px solid #eee; padding: 0.5em; }
        figcaption { font-size: 0.85em; color: #555; max-width: 330px; }
        .chart .bar { fill: #7a9cc6; } .chart .bar.full { fill: #3c8d4f; } .chart text { font-size: 10px; fill: #333; }
        .share { display: inline-block; width: 6em; height: 0.7em; background: #eee; vertical-align: middle; }
        .share span { display: block; height: 100%; background: #3c8d4f; }
        .mistakes li { margin-bottom: 0.8em; } .message { white-space: pre-wrap; word-break: break-word; font-size: 0.9em; }
        .revisit { font-weight: 600; } .gone, .faded { color: #2d6a3a; } .new, .spread { color: #9b2c2c; }
        .not-started { color: #666; } .learner { border-top: 1px solid #eee; margin-top: 1em; }
        </style>
        </head>
        <body>
        """
}
