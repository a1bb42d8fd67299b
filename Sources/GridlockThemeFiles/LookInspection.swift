import GridlockCore
import LinuxSys

/// How a configuration's look (its font and theme images) is judged. A program that draws
/// judges it as it will draw it, decoding every image and opening the font
/// (`GridlockRendering`'s `DecodingLookInspection`); one that draws nothing links no image
/// or font library and judges what it can without them (`HeaderLookInspection`).
public protocol LookInspecting: Sendable {
    /// Why `font` cannot be drawn with, or nil.
    func fontProblem(_ font: FontChoice) -> String?
    /// A theme's images together: every problem, by index into `paths`.
    func imageProblems(_ paths: [String]) -> [(index: Int, problem: ThemeImageProblem)]
}

/// The look of a configuration nothing draws: each image's header and file size within the
/// budgets (so an absurd file is still refused at its line), a font file readable; nothing
/// decoded, no font library asked.
public struct HeaderLookInspection: LookInspecting {
    public init() {}

    public func fontProblem(_ font: FontChoice) -> String? {
        guard case .file(let path) = font else { return nil }
        do {
            _ = try AtomicFile.regularFileHead(of: path, count: 4, limit: FontFileLimits.largestFile)
            return nil
        } catch {
            return error.reason
        }
    }

    public func imageProblems(_ paths: [String]) -> [(index: Int, problem: ThemeImageProblem)] {
        switch ThemeImageHead.heads(of: paths, stoppingAtFirst: false) {
        case .success: []
        case .failure(let problems): problems.list
        }
    }
}

/// Bounds on a font file, for the renderer and the check alike.
package enum FontFileLimits {
    /// Larger font files are refused. The largest in use, collections of every CJK face
    /// (Source Han's "super OTC"), are about 120 MiB; mapped, only the pages read count.
    package static let largestFile = 256 << 20
}
