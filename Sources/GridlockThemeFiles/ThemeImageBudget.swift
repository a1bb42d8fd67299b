/// How many pixels all the theme's images may have together, decoded (4 bytes each), and
/// how many bytes their files may take, each and together.
///
/// 4 Mi pixels (16 MiB decoded): a full-screen background for a 1920x1080 panel (2.1 Mi)
/// and four node images of 512x512 (1 Mi) fit with room to spare, and a reload, which
/// holds the old images and the new ones for a moment, costs at most 32 MiB of a 1 GiB
/// board. Decoding and scaling that much takes tens of milliseconds (docs/configuration.md
/// gives the figures), which is what a reload may stall the loop for. A larger panel
/// takes a smaller picture scaled up by `background-fit`.
///
/// Bytes are bounded before a file is read, from its size and its header: a file may take
/// what its image data takes uncompressed (the filtered scanlines, plus a sixteenth for
/// zlib's blocks and the chunks' framing) and 2 MiB besides for metadata (colour profiles,
/// text, EXIF), and all files together at most 24 MiB. So a small image padded with a huge
/// ancillary chunk is refused unread, and a reload holds at most one file's bytes at a time
/// (each is decoded before the next is read) beside the old and new decoded images.
package enum ThemeImageBudget {
    package static let pixels = 4 << 20
    /// All theme image files together, in bytes: an incompressible 2048x2048 RGBA image
    /// (16 MiB) and the rest of a theme fit.
    package static let bytes = 24 << 20
    /// Beyond the image data, per file.
    package static let metadataBytes = 2 << 20

    /// The largest file a PNG with this header may be.
    package static func largestFile(for header: PNGHeader) -> Int {
        let data = header.filteredBytes
        return min(data + data / 16 + metadataBytes, ThemeImageLimits.largestFile)
    }

    /// The first of `counts` that brings the running sum over `limit`, and that sum.
    package static func firstOver(_ counts: [Int], limit: Int = pixels) -> (index: Int, total: Int)? {
        var total = 0
        for (index, count) in counts.enumerated() {
            total += count
            if total > limit { return (index, total) }
        }
        return nil
    }
}

/// Bounds on one image, whatever the budget leaves.
package enum ThemeImageLimits {
    /// Larger sides are refused: no panel needs them, and DRM's framebuffers stop there.
    package static let largestSide = 16384
    /// A PNG file larger than this is refused before it is read: within the pixel budget
    /// even an incompressible 16-bit RGBA image is about half of it.
    package static let largestFile = 64 << 20
}
