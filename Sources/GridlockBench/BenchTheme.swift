import GridlockCore
import GridlockDaemon
import GridlockRendering

/// The bench's themed look: every image key, node images with transparency, a background
/// image scaled to fill, larger nodes and a wider line of its own colour. Its rows show
/// that images cost nothing per frame beyond copying prepared pixels.
public enum BenchTheme {
    /// Writes the images into `directory` and returns the theme that names them.
    public static func write(into directory: String) throws(RenderError) -> Theme {
        var theme = Theme()
        let looks: [(String, Color, WritableKeyPath<Theme, String?>)] = [
            ("node", Color(hex: "#5A6270")!, \.nodeImage), ("selected", Color(hex: "#2E9BFF")!, \.selectedImage),
            ("error", Color(hex: "#F0454B")!, \.errorImage), ("success", Color(hex: "#3CC873")!, \.successImage),
        ]
        for (name, color, key) in looks {
            let path = "\(directory)/\(name).png"
            try SampleImages.disc(side: 256, color: color, to: path)
            theme[keyPath: key] = path
        }
        let backdrop = "\(directory)/backdrop.png"
        try SampleImages.gradient(width: 1280, height: 720, from: Color(hex: "#0B2540")!, to: Color(hex: "#301040")!, to: backdrop)
        theme.backgroundImage = backdrop
        theme.backgroundFit = .fill
        theme.nodeSize = 0.4
        theme.lineWidth = 0.08
        theme.lineColor = Color(hex: "#FFB000")!
        return theme
    }
}
