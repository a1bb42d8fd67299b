import LinuxSys

/// A theme image's header (its first 33 bytes) and its file's size, from one bounded open:
/// all that is believed of it before the budgets pass.
package struct ThemeImageHead: Hashable, Sendable {
    package let header: PNGHeader
    package let size: Int

    /// What a file with this header may take: see `ThemeImageBudget.largestFile(for:)`.
    package var largestSize: Int { ThemeImageBudget.largestFile(for: header) }
    package var pixels: Int { header.pixels }

    /// The head of the file at `path`, its size judged against its header: a 64x64 image
    /// padded to 63 MiB with an ancillary chunk is refused here, before it is read.
    package init(path: String) throws(ThemeImageProblem) {
        let found: (start: [UInt8], size: Int)
        do {
            found = try AtomicFile.regularFileHead(of: path, count: PNGHeader.byteCount, limit: ThemeImageLimits.largestFile)
        } catch {
            if case .tooLarge = error { throw .tooManyBytes(size: nil, allowed: ThemeImageLimits.largestFile, width: nil, height: nil) }
            throw .unreadable(error.reason)
        }
        try Self.checkSize(found.start)
        header = try PNGHeader(found.start)
        size = found.size
        guard size <= largestSize else {
            throw .tooManyBytes(size: size, allowed: largestSize, width: header.width, height: header.height)
        }
    }

    /// The size the header claims, refused before anything else of the file is believed.
    private static func checkSize(_ bytes: [UInt8]) throws(ThemeImageProblem) {
        let (width, height) = try PNGHeader.claimedSize(bytes)
        guard width > 0, height > 0 else { throw .empty(width: width, height: height) }
        guard width <= ThemeImageLimits.largestSide, height <= ThemeImageLimits.largestSide else {
            throw .tooLarge(width: width, height: height)
        }
        guard width * height <= ThemeImageBudget.pixels else {
            throw .overBudget(width: width, height: height, total: width * height)
        }
    }

    /// Every head of `paths` and then their pixels and bytes held against the budgets:
    /// the heads, or every problem by index into `paths` (`stoppingAtFirst`: the first).
    package static func heads(
        of paths: [String], stoppingAtFirst: Bool
    ) -> Result<[ThemeImageHead], ThemeImageProblems> {
        var heads: [ThemeImageHead] = []
        var problems: [(index: Int, problem: ThemeImageProblem)] = []
        for (index, path) in paths.enumerated() {
            do throws(ThemeImageProblem) { heads.append(try ThemeImageHead(path: path)) } catch {
                problems.append((index, error))
                if stoppingAtFirst { break }
            }
        }
        guard problems.isEmpty else { return .failure(ThemeImageProblems(problems)) }
        if let (index, total) = ThemeImageBudget.firstOver(heads.map(\.pixels)) {
            let header = heads[index].header
            return .failure(ThemeImageProblems([(index, .overBudget(width: header.width, height: header.height, total: total))]))
        }
        if let (index, total) = ThemeImageBudget.firstOver(heads.map(\.size), limit: ThemeImageBudget.bytes) {
            return .failure(ThemeImageProblems([(index, .overByteBudget(size: heads[index].size, total: total))]))
        }
        return .success(heads)
    }
}

/// Which of a theme's images cannot be used and why, by index into the paths asked about.
package struct ThemeImageProblems: Error {
    package var list: [(index: Int, problem: ThemeImageProblem)]

    package init(_ list: [(index: Int, problem: ThemeImageProblem)]) { self.list = list }
}
