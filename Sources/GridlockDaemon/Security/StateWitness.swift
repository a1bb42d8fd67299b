import GridlockConfiguration
import GridlockCore
import LinuxSys

/// A small second record beside the state file (`attempts.witness`): that gridlockd has
/// written the state file here, its generation then, and the failure count then. So a
/// state file that is gone after the first start means "lost", not "a new panel"; an
/// older copy put back (a smaller generation) is caught; and what is lost of the count
/// is at most what the witness had not seen.
///
///     gridlock-witness 1
///     generation=1042
///     failures=3
///     crc32=1a2b3c4d
///
/// It follows every write of the state file (after it, so it never claims more than the
/// file holds), without an fsync of its own except when gridlockd starts: a power cut may
/// bring back an earlier witness, which only claims less. Before a panel's first state file
/// one of generation 0 is written, so no power cut leaves a first file without a witness. Deleting both files, or putting
/// back older copies of both, is an administrator's reset (docs/security.md).
struct StateWitness: Hashable, Sendable {
    var generation: Int64
    var failures: Int

    static let magic = "gridlock-witness"
    static let maximumSize = 256

    static func path(beside stateFile: String) -> String { stateFile + ".witness" }

    enum Load: Hashable, Sendable {
        /// No directory entry at all: gridlockd never wrote the state file here (or both went).
        case absent
        case present(StateWitness)
        /// Something is there (gridlockd ran), but what it says cannot be read.
        case unreadable(reason: String)
    }

    static func load(from path: String) -> Load {
        do {
            _ = try FileStatus(entryAt: path)
        } catch where error.errno == .noSuchFile {
            return .absent
        } catch {
            return .unreadable(reason: error.errno.text)
        }
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: maximumSize)
        } catch {
            return .unreadable(reason: error.reason)
        }
        guard let witness = decode(bytes) else { return .unreadable(reason: "not a gridlock witness file") }
        return .present(witness)
    }

    func save(to path: String, durable: Bool) throws(SystemCallError) {
        try AtomicFile.write(encode(), to: path, mode: AttemptStore.fileMode, durable: durable)
    }

    func encode() -> [UInt8] {
        let body = Array("\(Self.magic) 1\ngeneration=\(generation)\nfailures=\(failures)\n".utf8)
        return body + Array("crc32=\(AttemptFileFormat.hex(CRC32.checksum(body)))\n".utf8)
    }

    static func decode(_ bytes: [UInt8]) -> StateWitness? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard lines.count == 4, lines[0] == "\(magic) 1",
              lines[3] == "crc32=\(AttemptFileFormat.hex(CRC32.checksum(bytes[..<(bytes.count - lines[3].utf8.count - 1)])))",
              lines[1].hasPrefix("generation="), let generation = AttemptFileFormat.decimal64(String(lines[1].dropFirst(11))),
              lines[2].hasPrefix("failures="), let failures = AttemptFileFormat.decimal64(String(lines[2].dropFirst(9))),
              failures <= Int64(AttemptState.maximumFailures)
        else { return nil }
        return StateWitness(generation: generation, failures: Int(failures))
    }
}
