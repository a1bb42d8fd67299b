import Foundation
import Glibc
import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// The files and devices a configuration names, as the one verdict checks them: every key
/// whose value can be a path is found in the schema (none is listed here by hand), and each
/// is given what must neither hang nor pass.
@Suite struct NamedFileTests {
    /// One way a key that names a file is used.
    struct PathKey: Sendable, CustomTestStringConvertible {
        let section: String
        let key: String
        let kind: NamedFileKind
        /// Lines its section needs before it (a recording is a recording only with backend=replay).
        let before: [String]

        var testDescription: String { "[\(section)] \(key)" + before.map { " with \($0)" }.joined() }
        var isRecording: Bool { before.contains("backend=replay") }
    }

    static let pathKeys: [PathKey] = ConfigSchema.sections.flatMap { section in
        section.keys.compactMap { key in key.namedFile.map { (section.name, key.name, $0) } }
    }.flatMap { section, key, kind in
        // A [session] that lets no one in is refused before the files it names are looked at.
        let plain = PathKey(section: section, key: key, kind: kind, before: kind == .socket ? ["allow-users=0"] : [])
        return kind == .touchDevice ? [plain, PathKey(section: section, key: key, kind: kind, before: ["backend=replay"])] : [plain]
    }

    enum Hostile: String, CaseIterable, Sendable {
        case fifo = "a FIFO nobody writes"
        case zero = "/dev/zero"
        case folder = "a folder"
        case dangling = "a link to nothing"
    }

    /// The words the refusal must hold, or nil where the kind takes it: a folder for a
    /// folder, and a device that is not there (gridlockd waits for it to appear).
    static func refusal(of hostile: Hostile, by key: PathKey) -> String? {
        let isDevice: Bool
        switch key.kind {
        case .themeImage, .font, .stateFile: isDevice = false
        case .touchDevice: isDevice = !key.isRecording
        case .beeper, .displayCard: isDevice = true
        case .socket:
            switch hostile {
            case .fifo: return "is a FIFO, not a socket"
            case .zero: return "is a character device, not a socket"
            case .folder: return "is a directory, not a socket"
            case .dangling: return "is a symbolic link, not a socket"
            }
        case .folder:
            switch hostile {
            case .folder: return nil
            case .fifo: return "is a FIFO, not a folder"
            case .zero: return "is a character device, not a folder"
            case .dangling: return "is a symbolic link to nothing, not a folder"
            }
        }
        switch hostile {
        case .fifo: return "FIFO"
        case .zero: return isDevice ? "is a character device of another driver (major 1)" : "a character device, not a regular file"
        case .folder: return isDevice ? "is a directory, not" : "directory, not a regular file"
        case .dangling:
            if isDevice { return nil }
            if key.kind == .stateFile { return "is a symbolic link to nothing, not a regular file" }
            return key.isRecording ? "does not exist" : "No such file or directory"
        }
    }

    @Test("every key naming a file or a device refuses a FIFO, /dev/zero, a folder and a dangling link at its line, without blocking",
          arguments: pathKeys)
    func hostilePathsAreRefusedAtTheirLine(_ pathKey: PathKey) throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        let fifo = "\(folder)/named.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: "\(folder)/named.folder", withIntermediateDirectories: false)
        try #require(symlink("\(folder)/nothing-there", "\(folder)/named.link") == 0)
        let targets: [Hostile: String] = [.fifo: fifo, .zero: "/dev/zero", .folder: "\(folder)/named.folder", .dangling: "\(folder)/named.link"]
        let config = "\(folder)/gridlock.conf"
        for hostile in Hostile.allCases {
            let target = targets[hostile]!
            let lines = ["[\(pathKey.section)]"] + pathKey.before + ["\(pathKey.key)=\(target)"]
            try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o600)
            guard let check = withoutHanging("the verdict on \(pathKey.testDescription)=\(hostile.rawValue)", releasing: [fifo], {
                ConfigVerdict.check(path: config).check
            }) else { continue }
            let atKey = check.diagnostics.filter { $0.location == SourceLocation(file: config, line: lines.count) }
            guard let words = Self.refusal(of: hostile, by: pathKey) else {
                #expect(atKey.isEmpty, "\(pathKey.testDescription)=\(hostile.rawValue): \(atKey)")
                continue
            }
            #expect(atKey.count == 1, "\(pathKey.testDescription)=\(hostile.rawValue): \(check.diagnostics)")
            let message = atKey.first?.message ?? ""
            #expect(message.hasPrefix("[\(pathKey.section)] \(pathKey.key): "), "\(message)")
            #expect(message.contains(target) && message.contains(words), "\(hostile.rawValue): '\(message)' should say '\(words)'")
        }
    }

    @Test("every key whose value may be a path says what it names, every kind is in use, and patterns and hooks name none")
    func theSchemaMarksEveryPathKey() {
        let keys = ConfigSchema.sections.flatMap { section in section.keys.map { (section.name, $0) } }
        for (section, key) in keys where ["path", "file", "folder"].contains(where: key.allowed.contains) {
            #expect(key.namedFile != nil, "[\(section)] \(key.name) (\(key.allowed)) names a file but says not which kind")
        }
        #expect(Set(keys.compactMap(\.1.namedFile)) == Set(NamedFileKind.allCases))
        #expect(Self.pathKeys.count >= NamedFileKind.allCases.count)
        // exec= and duress-exec= name programs, which are run (execve refuses a FIFO), never read.
        #expect(ConfigSchema.pattern.keys.allSatisfy { $0.namedFile == nil })
        #expect(ConfigSchema.hook.keys.allSatisfy { $0.namedFile == nil })
    }

    @Test("a state file left at its default is checked too, and said to be the default")
    func aDefaultPathIsCheckedAsTheDefault() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": "[theme]\nnode=#112233\n"])
        defer { ConfigFixtures.remove(folder) }
        var config = GridlockConfig()
        config.lockout.stateFile = "/dev/zero"
        let found = NamedFileCheck.problems(config, at: [:], mainFile: "\(folder)/gridlock.conf", look: DecodingLookInspection())
        #expect(found.map(\.description) == [
            "\(folder)/gridlock.conf: [lockout] state-file (its default): '/dev/zero' is a character device, not a regular file"
        ])
    }
}

/// Theme images in the verdict: one pixel budget for all of them, a bomb refused from its
/// header at its line, and image data checked before cairo decodes it.
@Suite struct ThemeImageBudgetTests {
    /// A PNG whose header claims `width`x`height` at 1 bit of grey, with a 4-byte stub as
    /// image data (CRCs right): what a decompression bomb looks like before it is inflated.
    static func claiming(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            bigEndian(UInt32(data.count)) + Array(type.utf8) + data + bigEndian(CRC32.checksum(Array(type.utf8) + data))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(width) + bigEndian(height) + [1, 0, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x01, 0x03, 0x00]) + chunk("IEND", [])
    }

    func check(_ theme: String, files: [String: [UInt8]]) throws -> (folder: String, diagnostics: [String]) {
        // As gridlock and gridlockd judge a look they draw.
        ConfigVerdict.judgeDrawnLooks(with: DecodingLookInspection())
        let folder = try ConfigFixtures.scratch(["gridlock.conf": theme])
        chmod("\(folder)/gridlock.conf", 0o600)
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(name)")) }
        return (folder, ConfigVerdict.check(path: "\(folder)/gridlock.conf").check.diagnostics.map(\.description))
    }

    @Test("a 16384x16384 PNG is refused at its line from its header: its image data is never inflated")
    func aBombIsRefusedAtItsLine() throws {
        let (folder, found) = try check("[theme]\nbackground-image=bomb.png\n", files: ["bomb.png": Self.claiming(width: 16384, height: 16384)])
        defer { ConfigFixtures.remove(folder) }
        // Inflated, the 4-byte stub would be "short"; the size alone refuses it.
        #expect(found == [
            "\(folder)/gridlock.conf:2: [theme] background-image: cannot use '\(folder)/bomb.png': the image is 16384x16384 pixels, more than the 4194304 (2048x2048) all theme images together may have"
        ])
    }

    @Test("the budget is summed over every image key: the image that goes over it is refused at its line")
    func theBudgetSpansEveryImageKey() throws {
        let quarter = try ShadowBuffer(width: 1024, height: 1024)
        let scratch = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(scratch) }
        try PNGFile.write(quarter, to: "\(scratch)/quarter.png")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(scratch)/quarter.png")))
        let keys = ConfigSchema.theme.keys.filter { $0.namedFile == .themeImage }.map(\.name)
        #expect(keys.count == 5)
        let four = "[theme]\n" + keys.prefix(4).map { "\($0)=quarter.png\n" }.joined()
        let (folder, fits) = try check(four, files: ["quarter.png": bytes])
        ConfigFixtures.remove(folder)
        #expect(fits.isEmpty, "four images of 1024x1024 are the budget exactly: \(fits)")
        let (over, found) = try check(four + "\(keys[4])=quarter.png\n", files: ["quarter.png": bytes])
        defer { ConfigFixtures.remove(over) }
        #expect(found == [
            "\(over)/gridlock.conf:6: [theme] \(keys[4]): cannot use '\(over)/quarter.png': the image is 1024x1024 pixels and brings the theme's images to 5242880; together they may have at most 4194304 (2048x2048)"
        ])
    }

    @Test("image data too short for its header is refused at its line before cairo sees it")
    func shortImageDataIsNamedAtItsLine() throws {
        let (folder, found) = try check("[theme]\nnode-image=short.png\n", files: ["short.png": Self.claiming(width: 64, height: 64)])
        defer { ConfigFixtures.remove(folder) }
        #expect(found == [
            "\(folder)/gridlock.conf:2: [theme] node-image: cannot use '\(folder)/short.png': not a valid PNG: the image data is short: 0 of the 576 bytes a 64x64 image needs (truncated?)"
        ])
    }

    /// gridlockd as the verifier alone draws nothing and links no image or font library:
    /// its verdict reads each image's header and size, never its image data, and opens a
    /// font file without asking a font library what is in it.
    @Test("a configuration that draws nothing judges images by their headers and a font file by its opening")
    func aConfigThatDrawsNothingJudgesByHeaders() throws {
        let verifier = "[display]\nbackend=none\n[touch]\nbackend=none\n[session]\nallow-users=root\n[theme]\n"
        let (folder, found) = try check(
            verifier + "node-image=short.png\nfont=not-a-font.ttf\n",
            files: ["short.png": Self.claiming(width: 64, height: 64), "not-a-font.ttf": Array("plain text\n".utf8)])
        ConfigFixtures.remove(folder)
        #expect(found.isEmpty, "nothing decodes the image nor shapes with the font: \(found)")
        let (bomb, refused) = try check(verifier + "background-image=bomb.png\n", files: ["bomb.png": Self.claiming(width: 16384, height: 16384)])
        ConfigFixtures.remove(bomb)
        #expect(refused == [
            "\(bomb)/gridlock.conf:8: [theme] background-image: cannot use '\(bomb)/bomb.png': the image is 16384x16384 pixels, more than the 4194304 (2048x2048) all theme images together may have"
        ])
        let (noFont, missing) = try check(verifier + "font=missing.ttf\n", files: [:])
        defer { ConfigFixtures.remove(noFont) }
        #expect(missing == ["\(noFont)/gridlock.conf:8: [theme] font: cannot open '\(noFont)/missing.ttf': No such file or directory"])
        #expect(ConfigVerdict.lookInspection(for: GridlockConfig()) is DecodingLookInspection)
    }
}

/// Theme image files bounded in bytes before they are read: each by what its header says it
/// needs, all together by `ThemeImageBudget.bytes`.
@Suite struct ThemeImageByteBudgetTests {
    /// A PNG head claiming `width`x`height` (RGBA at `bitDepth`), then an ancillary chunk
    /// announcing `padding` bytes: the file is made that long without writing them (sparse),
    /// since the budget refuses it from its size before anything past the header is read.
    static func padded(_ path: String, width: UInt32, height: UInt32, bitDepth: UInt8 = 8, to size: Int) throws {
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let size32 = bigEndian(width) + bigEndian(height)
        let ihdr: [UInt8] = Array("IHDR".utf8) + size32 + [bitDepth, 6, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header: [UInt8] = signature + bigEndian(13) + ihdr + bigEndian(CRC32.checksum(ihdr))
        let padding: [UInt8] = bigEndian(UInt32(size - 33 - 12)) + Array("grLk".utf8)
        let head = header + padding
        try Data(head).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, off_t(size)) == 0)
    }

    func verdict(_ lines: [String], in folder: String) throws -> [String] {
        let config = "\(folder)/gridlock.conf"
        try (["[theme]"] + lines).joined(separator: "\n").appending("\n").write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        return ConfigVerdict.check(path: config).check.diagnostics.map(\.description)
    }

    @Test("a 64x64 PNG padded to 63 MiB with an ancillary chunk is refused at its line, in every image key, from its size")
    func aPaddedSmallImageIsRefusedUnread() throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        let keys = ConfigSchema.theme.keys.filter { $0.namedFile == .themeImage }.map(\.name)
        #expect(keys.count == 5)
        for key in keys { try Self.padded("\(folder)/\(key).png", width: 64, height: 64, to: 63 << 20) }
        let found = try verdict(keys.map { "\($0)=\($0).png" }, in: folder)
        let allowed = 64 * (1 + 64 * 4) + 64 * (1 + 64 * 4) / 16 + (2 << 20)
        #expect(found == keys.enumerated().map { index, key in
            "\(folder)/gridlock.conf:\(index + 2): [theme] \(key): cannot use '\(folder)/\(key).png': the file is 66060288 bytes, more than the \(allowed) a 64x64 PNG may take (its image data uncompressed, and 2097152 bytes of metadata)"
        })
    }

    @Test("a file beyond the hard limit of 64 MiB is refused without its header being believed")
    func aHugeFileIsRefusedByTheHardLimit() throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        try Self.padded("\(folder)/huge.png", width: 2048, height: 2048, bitDepth: 16, to: (64 << 20) + 1)
        #expect(try verdict(["background-image=huge.png"], in: folder) == [
            "\(folder)/gridlock.conf:2: [theme] background-image: cannot use '\(folder)/huge.png': the file is larger than 67108864 bytes, the most a theme image may take"
        ])
    }

    @Test("files each within their own bound but over 24 MiB together: the one that goes over is refused at its line")
    func theByteBudgetSpansEveryImageKey() throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        // 1448x1448 at 16 bits: two of them are within the pixel budget, and each may take
        // about 19 MiB; 13 MiB each is 26 MiB together.
        try Self.padded("\(folder)/a.png", width: 1448, height: 1448, bitDepth: 16, to: 13 << 20)
        try Self.padded("\(folder)/b.png", width: 1448, height: 1448, bitDepth: 16, to: 13 << 20)
        // Summed in the schema's order of the keys: node-image, then background-image.
        #expect(try verdict(["node-image=a.png", "background-image=b.png"], in: folder) == [
            "\(folder)/gridlock.conf:3: [theme] background-image: cannot use '\(folder)/b.png': the file is 13631488 bytes and brings the theme's image files to 27262976; together they may take at most 25165824 bytes (24 MiB)"
        ])
    }

    @Test("an image at its own bound passes: an incompressible image with 2 MiB of metadata is what the bound allows")
    func anImageAtItsBoundPasses() throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        let buffer = try ShadowBuffer(width: 16, height: 16)
        try PNGFile.write(buffer, to: "\(folder)/plain.png")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/plain.png")))
        // A private ancillary chunk of metadata after IHDR, to the bound exactly. The writer
        // makes RGB (colour type 2) or RGB with alpha (6).
        let channels = bytes[25] == 6 ? 4 : 3
        let data = 16 * (1 + 16 * channels)
        let bound = data + data / 16 + (2 << 20)
        let padding = bound - bytes.count - 12
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let chunk = Array("grLk".utf8) + [UInt8](repeating: 0x20, count: padding)
        let framed: [UInt8] = bigEndian(UInt32(padding)) + chunk + bigEndian(CRC32.checksum(chunk))
        bytes.insert(contentsOf: framed, at: 33)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/bound.png"))
        #expect(try verdict(["node-image=bound.png"], in: folder).isEmpty)
        bytes.insert(0x20, at: 33 + 8 + 10)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/over.png"))
        let over = try verdict(["node-image=over.png"], in: folder)
        #expect(over.count == 1 && over[0].contains("more than the \(bound) a 16x16 PNG may take"), "\(over)")
    }
}
