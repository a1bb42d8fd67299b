import GridlockCore
import GridlockInput
import LinuxSys
import Synchronization

/// The evemu recording `[touch] backend=replay device=` names: read whole (the replay backend
/// holds it; `gridlock replay` streams instead) and parsed when the configuration is checked,
/// then kept for the load that comes right after (gridlockd's start and every reload check it,
/// then build their touch source), so a recording is parsed once, not twice, as
/// `ThemeImageCheck` keeps decoded images.
public enum RecordingFile {
    public static let limit = 64 << 20

    /// The recording at `path`: the one the last check parsed if the file still holds the
    /// very bytes parsed, else parsed now.
    public static func load(_ path: String) throws(RecordingFileError) -> EvemuRecording {
        let bytes = try read(path)
        let shelved = shelf.withLock { shelf in
            defer { shelf = nil }
            return shelf
        }
        if let shelved, shelved.path == path, shelved.bytes == bytes { return shelved.recording }
        return try parse(bytes, path)
    }

    /// `load` for the configuration's check of `[touch] device=` (`NamedFileCheck`): what it
    /// parsed is kept for the `load` that comes next.
    public static func check(_ path: String) throws(RecordingFileError) {
        let bytes = try read(path)
        let recording = try parse(bytes, path)
        shelf.withLock { $0 = (path, bytes, recording) }
    }

    /// Taken once; what nobody takes is let go at the next check or load.
    private static let shelf = Mutex<(path: String, bytes: [UInt8], recording: EvemuRecording)?>(nil)

    private static func read(_ path: String) throws(RecordingFileError) -> [UInt8] {
        do {
            return try AtomicFile.regularFileContents(of: path, limit: limit)
        } catch where error.errno == .noSuchFile {
            throw RecordingFileError(reason: "recording \(path) does not exist")
        } catch {
            throw RecordingFileError(reason: "\(error)")
        }
    }

    private static func parse(_ bytes: [UInt8], _ path: String) throws(RecordingFileError) -> EvemuRecording {
        do {
            return try EvemuRecording(parsing: String(decoding: bytes, as: UTF8.self), file: path)
        } catch {
            throw RecordingFileError(reason: "\(error)")
        }
    }
}

/// Why a recording cannot be used, naming its path.
public struct RecordingFileError: Error, Hashable, Sendable {
    public let reason: String
}
