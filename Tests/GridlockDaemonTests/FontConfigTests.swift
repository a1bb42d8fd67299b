import Foundation
import GridlockCore
@testable import GridlockConfiguration
@testable import GridlockDaemon
import GridlockRendering
import Testing

enum FontFixtures {
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}

/// `[theme] font=`: a family or a file, each checked by the one config verdict with its line.
struct FontConfigTests {
    func loaded(_ font: String) throws -> (check: [String], config: GridlockConfig, path: String, folder: String) {
        // As gridlock and gridlockd judge a look they draw.
        ConfigVerdict.judgeDrawnLooks(with: DecodingLookInspection())
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[theme]\nfont=\(font)\n",
            "not-a-font.ttf": "plain text, not a font\n",
        ])
        let path = folder + "/gridlock.conf"
        let (check, config) = ConfigVerdict.check(path: path)
        return (check.diagnostics.map(\.description), config, path, folder)
    }

    @Test("a family name is looked up among the installed fonts") func aFamilyNameIsLookedUpAmongTheInstalledFonts() throws {
        let result = try loaded("DejaVu Sans Mono")
        defer { ConfigFixtures.remove(result.folder) }
        #expect(result.check.isEmpty)
        #expect(result.config.theme.font == .family("DejaVu Sans Mono"))
    }

    @Test("a family no installed font has is refused with its line") func aFamilyNoInstalledFontHasIsRefusedWithItsLine() throws {
        let result = try loaded("Comic Gridlock")
        defer { ConfigFixtures.remove(result.folder) }
        #expect(result.check.count == 1)
        #expect(result.check.first?.hasPrefix(
            "\(result.path):2: [theme] font: family 'Comic Gridlock': no installed font has this family") == true)
    }

    @Test("an absolute font file is accepted") func anAbsoluteFontFileIsAccepted() throws {
        let result = try loaded(FontFixtures.dejaVuSans)
        defer { ConfigFixtures.remove(result.folder) }
        #expect(result.check.isEmpty)
        #expect(result.config.theme.font == .file(FontFixtures.dejaVuSans))
    }

    @Test("a file that is not a font is refused with its line and the reason") func aFileThatIsNotAFontIsRefusedWithItsLineAndTheReason() throws {
        let result = try loaded("not-a-font.ttf")
        defer { ConfigFixtures.remove(result.folder) }
        #expect(result.check == [
            "\(result.path):2: [theme] font: cannot open '\(result.folder)/not-a-font.ttf': unknown file format, not a font FreeType can read (FreeType error 0x2)"
        ])
    }

    @Test("an unreadable font file is refused with its line and the reason") func anUnreadableFontFileIsRefusedWithItsLineAndTheReason() throws {
        let result = try loaded("/nonexistent/gridlock/NoSuchFont.otf")
        defer { ConfigFixtures.remove(result.folder) }
        #expect(result.check == [
            "\(result.path):2: [theme] font: cannot open '/nonexistent/gridlock/NoSuchFont.otf': No such file or directory"
        ])
    }

    @Test("a value is a file when it has a slash or a font ending") func aValueIsAFileWhenItHasASlashOrAFontEnding() {
        #expect(FontChoice.isFileName("fonts/panel"))
        #expect(FontChoice.isFileName("Panel.TTF"))
        #expect(FontChoice.isFileName("NotoSansCJK-Regular.ttc"))
        #expect(!FontChoice.isFileName("Noto Sans CJK SC"))
        #expect(!FontChoice.isFileName("DejaVu Sans"))
    }
}
