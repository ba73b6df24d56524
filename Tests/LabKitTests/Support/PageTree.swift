import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An HTML page read as the XML it also is (the class report is well-formed XML): its elements, attributes and text,
/// for checks of its structure and numbers. Reading fails when the page is not well-formed.
final class PageNode {
    let name: String
    let attributes: [String: String]
    private(set) var children: [PageNode] = []
    fileprivate(set) var ownText = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// The text of the node and all its descendants.
    var text: String { ownText + children.map(\.text).joined() }

    /// Every descendant (and itself), depth first.
    var all: [PageNode] { [self] + children.flatMap(\.all) }

    func all(_ name: String) -> [PageNode] { all.filter { $0.name == name } }

    func first(_ name: String, where attribute: String, is value: String) -> PageNode? {
        all.first { $0.name == name && $0.attributes[attribute] == value }
    }

    fileprivate func add(_ child: PageNode) { children.append(child) }

    struct NotWellFormed: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ data: Data) throws -> PageNode {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse(), let root = reader.root else {
            throw NotWellFormed(description: "not well-formed at line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return root
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var root: PageNode?
        var open: [PageNode] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let node = PageNode(name: name, attributes: attributes)
            if let parent = open.last { parent.add(node) } else { root = node }
            open.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let node = open.last else { return }
            // Text after a child belongs, in reading order, to a text node of its own.
            if node.children.isEmpty { node.ownText += string } else {
                let text = PageNode(name: "#text", attributes: [:])
                text.ownText = string
                node.add(text)
            }
        }
    }
}
