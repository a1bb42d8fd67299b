import Testing
@testable import GridlockRendering

/// The fontconfig configuration gridlock builds: the system's folders and cache, and a
/// writable cache of the program's own when systemd gave it one.
@Suite struct FontLibraryConfigurationTests {
    @Test("with systemd's CACHE_DIRECTORY its fontconfig folder follows the system's cache; without, the system's alone")
    func cacheFolders() {
        let system = "<dir>/usr/share/fonts</dir><dir>/usr/local/share/fonts</dir><cachedir>/var/cache/fontconfig</cachedir>"
        #expect(FontLibrary.configuration(cacheDirectory: nil) == "<fontconfig>\(system)</fontconfig>")
        #expect(FontLibrary.configuration(cacheDirectory: "/var/cache/gridlock-panel")
                == "<fontconfig>\(system)<cachedir>/var/cache/gridlock-panel/fontconfig</cachedir></fontconfig>")
        // Several folders (CacheDirectory= may name more): the first that is named.
        for value in ["/var/cache/a:/var/cache/b", ":/var/cache/a"] {
            #expect(FontLibrary.configuration(cacheDirectory: value)
                    == "<fontconfig>\(system)<cachedir>/var/cache/a/fontconfig</cachedir></fontconfig>")
        }
    }

    @Test("a CACHE_DIRECTORY that names nothing, is relative or holds a character XML would read is left out")
    func strangeCacheDirectories() {
        let plain = FontLibrary.configuration(cacheDirectory: nil)
        for value in ["", "cache", "/var/cache/<x>", "/var/cache/a&b", "/var/cache/\"q\"", ":"] {
            #expect(FontLibrary.configuration(cacheDirectory: value) == plain, "\(value)")
        }
    }
}
