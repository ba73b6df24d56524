import Foundation

/// A small inline SVG bar chart of how many learners fall in each score band of a lesson: no script, no font or
/// file from elsewhere. Each bar carries its band and count (`data-band`, `data-count`) for a reader and the tests.
enum ScoreChart {
    static func svg(bands: [Int], labels: [String] = ScoreBands.labels, title: String) -> String {
        let (barWidth, gap, plotHeight, top, bottom) = (44, 8, 80, 16, 18)
        let width = bands.count * (barWidth + gap) + gap
        let height = top + plotHeight + bottom
        let highest = max(1, bands.max() ?? 0)
        var parts = ["<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(HTMLText.escaped(title))\">",
                     "<title>\(HTMLText.escaped(title))</title>"]
        for (index, count) in bands.enumerated() {
            let x = gap + index * (barWidth + gap)
            let barHeight = count == 0 ? 1 : max(3, plotHeight * count / highest)
            let y = top + plotHeight - barHeight
            let label = index < labels.count ? labels[index] : "\(index)"
            let full = index == bands.count - 1 ? " full" : ""
            parts.append("<rect class=\"bar\(full)\" x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(barHeight)\" data-band=\"\(HTMLText.escaped(label))\" data-count=\"\(count)\"><title>\(HTMLText.escaped(label)): \(count)</title></rect>")
            parts.append("<text x=\"\(x + barWidth / 2)\" y=\"\(y - 3)\" text-anchor=\"middle\">\(count)</text>")
            parts.append("<text x=\"\(x + barWidth / 2)\" y=\"\(height - 4)\" text-anchor=\"middle\" class=\"band\">\(HTMLText.escaped(label))</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
