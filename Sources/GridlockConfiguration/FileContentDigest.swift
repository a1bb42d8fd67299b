import GridlockCore

/// A file's length and CRC-32: enough to tell a file rewritten between two reads from one
/// left alone, without keeping a megabyte of drop-ins twice.
public struct FileContentDigest: Hashable, Sendable {
    public let count: Int
    public let checksum: UInt32

    public init(_ bytes: [UInt8]) {
        count = bytes.count
        checksum = CRC32.checksum(bytes)
    }
}
