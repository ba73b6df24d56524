import Foundation
import LabMetadata

/// How a kit's private copy builds a learner's lessons without compiling the kit's tests again (Linux).
///
/// SwiftPM compiles a lesson's test module again whenever the lesson's module file changes, and any declaration of the
/// learner's, even a private helper, changes it: three quarters of a learner's build. Here each lesson is compiled on
/// its own with library evolution (`-enable-library-evolution`), so what is compiled against it depends on its public
/// interface only — the `.swiftinterface` the compiler writes — as a binary framework's clients do. A lesson's test
/// module is compiled once per distinct interface and kept (`.build/lab-quick/`); a learner then costs their lessons'
/// own compile and a link. That an identical interface means an identical ABI is library evolution's own promise,
/// and the one assumption made here: no code of one learner is ever linked into another's tests.
///
/// It starts from SwiftPM's finished build of the same copy (the kit's modules, the list of XCTest methods SwiftPM
/// generated, the link's object list), and is used only while the copy's kit files are those that build saw (`arm`).
/// A lesson that does not compile is compiled again as SwiftPM compiles it, and only errors that compile gives too
/// are the learner's (`doesNotCompile`); anything else out of the ordinary — a file that is not Swift, tests that
/// cannot use the learner's functions, a failed link — is `cannot`, and the caller builds with SwiftPM as before.
/// `LAB_FULL_BUILD=1` turns it off.
struct QuickBuild {
    let root: URL
    /// Every lesson of the kit, graded or not: their modules are never taken from SwiftPM's build.
    let allLessons: [String]
    /// The lessons built (the copy's `LAB_LESSONS`: a build with the board or the kit's own tests, which are compiled
    /// against the lessons too, is never quick) and SwiftPM's build flags: a build with others is not the one armed.
    let lessons: [String]
    let flags: [String]

    init?(root: URL, allLessons: [String], environment: [String: String], flags: [String]) {
        guard Self.isAvailable, let only = environment["LAB_LESSONS"] else { return nil }
        self.root = root
        self.allLessons = allLessons
        lessons = only.split(separator: ",").map(String.init)
        self.flags = flags
    }

    /// Whether quick builds are used at all: Linux only (where SwiftPM's test executable is a plain file, and where
    /// this was measured), and not when `LAB_FULL_BUILD=1`.
    static var isAvailable: Bool {
        #if os(Linux)
        return ProcessInfo.processInfo.environment["LAB_FULL_BUILD"] != "1"
        #else
        return false
        #endif
    }

    private var bin: URL { root.appendingPathComponent(".build/debug") }
    private var tree: URL { root.appendingPathComponent(".build/lab-quick") }
    private var armedFile: URL { root.appendingPathComponent(".build/lab-quick-armed") }
    private var modules: URL { tree.appendingPathComponent("Modules") }

    /// Called after SwiftPM built the copy: quick builds may start from that build while the kit's files stay as they are.
    func arm() {
        try? Data(kitStamp().utf8).write(to: armedFile, options: .atomic)
    }

    enum Outcome {
        /// The test executable.
        case built(URL)
        /// Lessons whose code does not compile — as SwiftPM would compile it, without library evolution: the
        /// compiler's output, and its errors (`BuildErrors`).
        case doesNotCompile(output: String, errors: [String])
        /// Not here: SwiftPM must build.
        case cannot
    }

    /// Builds the copy's current Exercises/ into a test executable. `log` receives what was done, for the run's log.
    func build(log: inout String) -> Outcome {
        let kitStamp = kitStamp()
        guard (try? String(contentsOf: armedFile, encoding: .utf8)) == kitStamp, let product = SwiftPMProduct(bin: bin),
              lessons.allSatisfy({ lesson in product.discoveredSources.contains { $0.lastPathComponent == "\(lesson)Tests.swift" } })
        else { return .cannot }
        do {
            try prepareTree(for: product, kitStamp: kitStamp)
            // The lessons side by side (a learner graded last, or alone, waits for their build only).
            let compiled = try ParallelGrading.run(lessons.count, width: ProcessInfo.processInfo.activeProcessorCount) { index, _ in
                var said = ""
                return (try compileLesson(lessons[index], log: &said), said)
            }
            var builds: [(folder: URL, interface: String)] = [], errors = ""
            for (result, said) in compiled {
                log += said
                switch result {
                case .compiled(let folder, let interface): builds.append((folder, interface))
                case .doesNotCompile(let output): errors += output
                case .cannot: return .cannot
                }
            }
            if !errors.isEmpty { return .doesNotCompile(output: errors, errors: BuildErrors.find(in: errors, root: root)) }
            var objects: [URL] = [], testModules: [URL] = []
            for (lesson, build) in zip(lessons, builds) {
                guard let tests = try testModule(of: lesson, build: build.folder, interface: build.interface, log: &log)
                else { return .cannot }
                objects += [build.folder.appendingPathComponent("\(lesson).o"), tests.appendingPathComponent("\(lesson)Tests.o")]
                testModules.append(tests)
            }
            guard let discovered = try discoveredTests(of: product, using: testModules, log: &log) else { return .cannot }
            let kept = product.objects.filter { !isBuiltHere($0, product: product) }
            return try link(kept + objects + [discovered], product: product, log: &log).map(Outcome.built) ?? .cannot
        } catch {
            log += "quick build: \(error)\n"
            return .cannot
        }
    }

    // MARK: - The tree and its stamps

    /// The copy's kit files as SwiftPM's build saw them (path, size and time of the manifest, Sources/ and Tests/),
    /// with the lessons and flags built.
    private func kitStamp() -> String {
        let built = "\(lessons.joined(separator: ","))\n\(flags.joined(separator: " "))\n"
        return KitFingerprint.digest(Data((built + KitFingerprint.listing(of: ["Package.swift", "Sources", "Tests"], in: root)).utf8))
    }

    /// Starts the tree again when SwiftPM's kit modules or the kit's files (`kitStamp`) changed: what it holds was
    /// compiled against them. The kit's module files are copied in; the lessons' and tests' come from here.
    private func prepareTree(for product: SwiftPMProduct, kitStamp: String) throws {
        var listing = kitStamp + "\n"
        for object in product.objects where !isBuiltHere(object, product: product) && !product.isRunner(object) {
            listing += "\(object.path)\t\(KitFingerprint.sizeAndTime(of: object))\n"
        }
        let base = KitFingerprint.digest(Data(listing.utf8))
        let baseFile = tree.appendingPathComponent("base")
        if (try? String(contentsOf: baseFile, encoding: .utf8)) == base { return }
        try? FileManager.default.removeItem(at: tree)
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let spmModules = bin.appendingPathComponent("Modules")
        for name in try FileManager.default.contentsOfDirectory(atPath: spmModules.path) where name.hasSuffix(".swiftmodule") {
            let module = String(name.dropLast(".swiftmodule".count))
            guard !allLessons.contains(where: { module == $0 || module == "\($0)Tests" }),
                  module != product.discoveredModule, module != product.name else { continue }
            try FileManager.default.copyItem(at: spmModules.appendingPathComponent(name), to: modules.appendingPathComponent(name))
        }
        try Data(base.utf8).write(to: baseFile)
    }

    /// Whether SwiftPM's object is one built here instead: a lesson's, its tests', or the list of XCTest methods'.
    private func isBuiltHere(_ object: URL, product: SwiftPMProduct) -> Bool {
        let folder = object.deletingLastPathComponent().lastPathComponent
        return folder == "\(product.discoveredModule).build"
            || allLessons.contains { folder == "\($0).build" || folder == "\($0)Tests.build" }
    }

    // MARK: - Compiling

    private enum Compiled {
        /// The folder of the lesson's build (its object and module file), and the digest of its interface.
        case compiled(URL, interface: String)
        case doesNotCompile(String)
        case cannot
    }

    /// How many builds of each lesson are kept, by their source: the kit's stubs of the lessons a learner has not
    /// started, which most learners share, are then compiled once.
    static let keptBuilds = 6

    /// Compiles `Exercises/<lesson>` with library evolution, unless this very source was built here before. When it
    /// does not compile, it is compiled again as SwiftPM compiles it: only errors that build gives too are the
    /// learner's; anything else, or a file that is not Swift, is for SwiftPM to build.
    private func compileLesson(_ lesson: String, log: inout String) throws -> Compiled {
        let folder = root.appendingPathComponent("Exercises/\(lesson)")
        let files = try regularFiles(under: folder)
        guard !files.isEmpty, files.allSatisfy({ $0.hasSuffix(".swift") }) else { return .cannot }
        let sources = files.map { folder.appendingPathComponent($0).path }
        var contents = Data()
        for file in files { contents += Data("\(file)\n".utf8) + (try Data(contentsOf: folder.appendingPathComponent(file))) }
        let build = tree.appendingPathComponent("\(lesson)-source-\(KitFingerprint.digest(contents).prefix(16))")
        let interfaceFile = build.appendingPathComponent("interface")  // written last: the build is whole
        if let interface = try? String(contentsOf: interfaceFile, encoding: .utf8) {
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: interfaceFile.path)
            return .compiled(build, interface: interface)
        }
        try? FileManager.default.removeItem(at: build)
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let publicInterface = build.appendingPathComponent("\(lesson).swiftinterface")
        let privateInterface = build.appendingPathComponent("\(lesson).private.swiftinterface")
        let evolving = try swiftc(["-module-name", lesson, "-enable-library-evolution",
                                   "-emit-module-path", build.appendingPathComponent("\(lesson).swiftmodule").path,
                                   "-emit-module-interface-path", publicInterface.path,
                                   "-emit-private-module-interface-path", privateInterface.path,
                                   "-no-verify-emitted-module-interface",
                                   "-o", build.appendingPathComponent("\(lesson).o").path] + sources)
        guard evolving.status == 0 else {
            let plain = build.appendingPathComponent("plain")
            let asSwiftPM = try swiftc(["-module-name", lesson, "-emit-module-path", plain.appendingPathExtension("swiftmodule").path,
                                        "-o", plain.appendingPathExtension("o").path] + sources)
            try? FileManager.default.removeItem(at: build)
            if asSwiftPM.status != 0 { return .doesNotCompile(asSwiftPM.output) }
            log += "quick build: \(lesson) compiles only without library evolution, building with SwiftPM\n\(evolving.output)"
            return .cannot
        }
        let interface = KitFingerprint.digest(try Data(contentsOf: publicInterface) + Data(contentsOf: privateInterface))
        try Data(interface.utf8).write(to: interfaceFile)
        forgetOldBuilds(of: lesson)
        return .compiled(build, interface: interface)
    }

    /// Keeps the `keptBuilds` builds of the lesson used last.
    private func forgetOldBuilds(of lesson: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: tree.path)) ?? []).filter { $0.hasPrefix("\(lesson)-source-") }
        let used = names.map { name -> (String, Date) in
            let stamp = tree.appendingPathComponent("\(name)/interface").path
            return (name, ((try? FileManager.default.attributesOfItem(atPath: stamp))?[.modificationDate] as? Date) ?? .distantPast)
        }
        for (name, _) in used.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.keptBuilds) {
            try? FileManager.default.removeItem(at: tree.appendingPathComponent(name))
        }
    }

    /// The folder of `<lesson>Tests` compiled against a lesson with this interface (its object and module file):
    /// compiled now if none is kept.
    private func testModule(of lesson: String, build: URL, interface: String, log: inout String) throws -> URL? {
        let module = "\(lesson)Tests"
        let variant = tree.appendingPathComponent("\(module)-\(interface.prefix(16))")
        let object = variant.appendingPathComponent("\(module).o")
        if try Self.isDone(variant) { return variant }
        // The tests import this build.
        try Self.copy(build.appendingPathComponent("\(lesson).swiftmodule"), over: modules.appendingPathComponent("\(lesson).swiftmodule"))
        let folder = root.appendingPathComponent("Tests/\(module)")
        let files = try regularFiles(under: folder).filter { $0.hasSuffix(".swift") }
        let compiled = try swiftc(["-module-name", module, "-Xfrontend", "-enable-cross-import-overlays",
                                   "-emit-module-path", variant.appendingPathComponent("\(module).swiftmodule").path,
                                   "-o", object.path] + files.map { folder.appendingPathComponent($0).path })
        guard compiled.status == 0 else {  // SwiftPM's build says why, in its words
            log += "quick build: \(module) does not compile against this lesson, building with SwiftPM\n"
            return nil
        }
        try Self.markDone(variant)
        return variant
    }

    /// SwiftPM's generated list of XCTest methods, compiled once per tree, against the test modules of the first
    /// learner built here: it names test classes and their `test…` methods only, which no lesson's interface changes.
    private func discoveredTests(of product: SwiftPMProduct, using testModules: [URL], log: inout String) throws -> URL? {
        let output = tree.appendingPathComponent("discovered")
        let object = output.appendingPathComponent("\(product.discoveredModule).o")
        if try Self.isDone(output) { return object }
        for (lesson, variant) in zip(lessons, testModules) {
            let module = "\(lesson)Tests.swiftmodule"
            try Self.copy(variant.appendingPathComponent(module), over: modules.appendingPathComponent(module))
        }
        let compiled = try swiftc(["-module-name", product.discoveredModule, "-Xfrontend", "-enable-cross-import-overlays",
                                   "-emit-module-path", output.appendingPathComponent("\(product.discoveredModule).swiftmodule").path,
                                   "-o", object.path] + product.discoveredSources.map(\.path))
        guard compiled.status == 0 else {
            log += "quick build: SwiftPM's list of tests does not compile here, building with SwiftPM\n\(compiled.output)"
            return nil
        }
        try Self.markDone(output)
        return object
    }

    private func link(_ objects: [URL], product: SwiftPMProduct, log: inout String) throws -> URL? {
        let list = tree.appendingPathComponent("objects.list")
        try Data(objects.map { Self.quoted($0.path) + "\n" }.joined().utf8).write(to: list)
        let binary = tree.appendingPathComponent("\(product.name).xctest")
        let linked = try WatchedProcess.run(["swiftc", "-emit-executable", "-module-name", product.name, "-o", binary.path,
                                             "-L", bin.path, "-Xlinker", "-rpath=$ORIGIN", "@\(list.path)"], in: root, limit: 300)
        guard linked.status == 0 else {
            log += "quick build: the link failed, building with SwiftPM\n\(linked.output)"
            return nil
        }
        return binary
    }

    /// A module compiled the way SwiftPM's debug build compiles it (one job, line tables only: a crash report then
    /// names the learner's file and line, `CrashReport`), against the tree's modules.
    private func swiftc(_ arguments: [String]) throws -> WatchedProcess.Outcome {
        let command = ["swiftc", "-parse-as-library", "-wmo", "-Onone", "-enable-testing", "-swift-version", "5", "-gline-tables-only",
                       "-DSWIFT_PACKAGE", "-DDEBUG", "-DSWIFT_MODULE_RESOURCE_BUNDLE_UNAVAILABLE", "-Xcc", "-fPIC",
                       "-package-name", root.lastPathComponent.lowercased(),
                       "-I", modules.path, "-module-cache-path", tree.appendingPathComponent("ModuleCache").path,
                       "-emit-module", "-c"] + arguments
        return try WatchedProcess.run(command, in: root, limit: 300)
    }

    // MARK: - Small helpers

    /// Whether `folder` holds finished work (`markDone`); if not, it is made anew, empty.
    private static func isDone(_ folder: URL) throws -> Bool {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("done").path) { return true }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return false
    }

    private static func markDone(_ folder: URL) throws {
        try Data().write(to: folder.appendingPathComponent("done"))
    }

    private static func copy(_ source: URL, over target: URL) throws {
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: source, to: target)
    }

    /// A path as one word of a response file (`@file`): in double quotes, with `"` and `\` escaped.
    static func quoted(_ path: String) -> String {
        "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// What SwiftPM's last build of the tests left in `.build/debug`: the test executable's name, its object list
/// (`<Package>PackageTests.product/Objects.LinkFileList`), and the sources of the generated list of XCTest methods
/// (`<Package>PackageDiscoveredTests.build/sources`; its `.derived` folder also keeps files of earlier builds).
struct SwiftPMProduct {
    /// "<Package>PackageTests".
    let name: String
    let objects: [URL]
    /// "<Package>PackageDiscoveredTests": the generated list of XCTest methods.
    let discoveredModule: String
    let discoveredSources: [URL]

    /// Whether the object is the test runner's (`runner.swift`): SwiftPM compiles it again whenever the list of
    /// XCTest methods changes, yet it only calls that list, so the one SwiftPM built last always serves.
    func isRunner(_ object: URL) -> Bool {
        object.deletingLastPathComponent().lastPathComponent == "\(name).build"
    }

    init?(bin: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bin.path)) ?? []
        guard let product = names.first(where: { $0.hasSuffix("PackageTests.product") }) else { return nil }
        name = String(product.dropLast(".product".count))
        let list = bin.appendingPathComponent("\(product)/Objects.LinkFileList")
        discoveredModule = name.replacingOccurrences(of: "PackageTests", with: "PackageDiscoveredTests")
        objects = Self.words(in: list)
        discoveredSources = Self.words(in: bin.appendingPathComponent("\(discoveredModule).build/sources"))
        guard !objects.isEmpty, !discoveredSources.isEmpty else { return nil }
    }

    /// The paths in a response file SwiftPM wrote, one per line.
    private static func words(in file: URL) -> [URL] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { URL(fileURLWithPath: unquoted(String($0))) }
    }

    /// One word of a response file, as SwiftPM writes it: plain, or in single or double quotes (shell style).
    static func unquoted(_ word: String) -> String {
        var result = "", quote: Character?, escaped = false
        for character in word {
            if escaped { result.append(character); escaped = false; continue }
            switch (character, quote) {
            case ("\\", nil), ("\\", "\""): escaped = true
            case ("'", nil), ("\"", nil): quote = character
            case (let c, let q?) where c == q: quote = nil
            default: result.append(character)
            }
        }
        return result
    }
}
