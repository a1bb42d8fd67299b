/// A file read one line at a time through a fixed buffer, so a file of any length is
/// read in constant memory (a recording of millions of frames replayed, say). Opened as
/// `RegularFile.open` does: a FIFO or a device named instead is refused, never waited on.
public final class LineReader {
    public let path: String
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// A line longer than this is cut here: no input grows memory without bound.
    public let maximumLineBytes: Int

    public init(path: String, maximumLineBytes: Int = 1 << 16) throws(BoundedReadError) {
        self.path = path
        self.maximumLineBytes = maximumLineBytes
        file = try RegularFile.open(path, limit: nil).file
    }

    deinit { file.close() }

    /// The next line without its `\n`; nil at the end of the file.
    public func nextLine() throws(SystemCallError) -> Substring? {
        while true {
            let window = buffer[start..<min(buffer.count, start + maximumLineBytes)]
            if let newline = window.firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return Substring(decoding: buffer[start..<newline], as: UTF8.self)
            }
            if window.count == maximumLineBytes {
                defer { start += maximumLineBytes }
                return Substring(decoding: buffer[start..<start + maximumLineBytes], as: UTF8.self)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Substring(decoding: buffer[start...], as: UTF8.self)
            }
            try fill()
        }
    }

    private func fill() throws(SystemCallError) {
        buffer.removeFirst(start)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var count: Int?
        var failure: SystemCallError?
        chunk.withUnsafeMutableBytes { raw in
            do throws(SystemCallError) {
                count = try file.read(into: raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard let count, count > 0 else {
            atEnd = true
            return
        }
        buffer.append(contentsOf: chunk[0..<count])
    }
}
