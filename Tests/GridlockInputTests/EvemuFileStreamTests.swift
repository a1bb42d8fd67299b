import Foundation
import GridlockInput
import LinuxSys
import Testing

/// A recording read from its file as it is played gives what parsing it whole gives.
@Suite struct EvemuFileStreamTests {
    @Test("every fixture: the same device and events, streamed", arguments: try Fixtures.names() + Fixtures.names(in: "devices"))
    func streamedEqualsParsed(name: String) throws {
        let whole = try Fixtures.recording(name)
        let stream = try EvemuFileStream(path: Fixtures.directory.appendingPathComponent(name).path)
        #expect(stream.device == whole.device)
        var events: [InputEvent] = []
        while let event = try stream.next() { events.append(event) }
        #expect(events == whole.events)
    }

    @Test("a bad line deep in the file is an error with its FILE:LINE when the replay reaches it")
    func badLineMidStream() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = try Fixtures.text("protocol-b-1-2-3-6-9.evemu")
        text += "E: 9.000000 0003 0035 not-a-number\n"
        let path = folder.appendingPathComponent("bad.evemu").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let stream = try EvemuFileStream(path: path)
        let error = expectError(RecordingError.self) { while try stream.next() != nil {} }
        #expect(error?.location?.line == lines)
        #expect(error?.location?.file == path)
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        let error = expectError(RecordingError.self) { try EvemuFileStream(path: "/nonexistent/x.evemu") }
        #expect(error?.description == "recording /nonexistent/x.evemu: No such file or directory")
    }

    @Test("lines come back whole across buffer refills; an endless line is cut at the limit")
    func lineReaderBoundaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lines").path
        let long = String(repeating: "x", count: 100_000)
        try "first\n\(long)\nlast".write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try LineReader(path: path, maximumLineBytes: 70_000)
        #expect(try reader.nextLine() == "first")
        #expect(try reader.nextLine()?.count == 70_000)
        #expect(try reader.nextLine()?.count == 30_000)
        #expect(try reader.nextLine() == "last")
        #expect(try reader.nextLine() == nil)
    }
}
