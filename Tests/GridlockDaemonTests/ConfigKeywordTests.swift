import Foundation
import GridlockCore
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// Keywords are lower case everywhere in the config; where a keyword shares its key with a
/// path or a name, the same word in other letters is refused, never taken for a file.
@Suite struct ConfigKeywordTests {
    func diagnostics(_ text: String) throws -> (path: String, found: [String]) {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": text])
        return ("\(folder)/gridlock.conf", ConfigFixtures.diagnostics("\(folder)/gridlock.conf"))
    }

    @Test("beeper=AUTO, beeper=Off, device=AUTO, device=NAME:..., connector=Auto are refused at their line, saying the keyword")
    func miscasedKeywordsAreRefused() throws {
        let cases: [(String, String, String)] = [
            ("[feedback]\nbeeper=AUTO\n", "[feedback] beeper", "write 'auto', not 'AUTO' (for a file of that name write ./AUTO)"),
            ("[feedback]\nbeeper=Off\n", "[feedback] beeper", "write 'off', not 'Off' (for a file of that name write ./Off)"),
            ("[touch]\ndevice=AUTO\n", "[touch] device", "write 'auto', not 'AUTO' (for a file of that name write ./AUTO)"),
            ("[touch]\ndevice=NAME:Goodix\n", "[touch] device", "write 'name:Goodix', not 'NAME:Goodix' (for a file of that name write ./NAME:Goodix)"),
            ("[display]\nconnector=Auto\n", "[display] connector", "write 'auto', not 'Auto'"),
            ("[display]\ndevice=AUTO\n", "[display] device", "write 'auto', not 'AUTO'"),
        ]
        for (text, label, said) in cases {
            let (path, found) = try diagnostics(text)
            defer { ConfigFixtures.remove(String(path.dropLast("/gridlock.conf".count))) }
            #expect(found == ["\(path):2: \(label): keywords are lower case: \(said)"], "\(text)")
        }
    }

    @Test("the keywords themselves, and a file whose name only looks like one, are taken as meant")
    func keywordsAndLookalikePathsAreAccepted() throws {
        let (path, _) = try diagnostics("[feedback]\nbeeper=./AUTO\n[touch]\ndevice=./Auto\n")
        let folder = String(path.dropLast("/gridlock.conf".count))
        defer { ConfigFixtures.remove(folder) }
        let config = ConfigLoader.run(path: path).0
        #expect(config.feedback.beeper == .path("\(folder)/AUTO"))
        #expect(config.touch.device == .path("\(folder)/Auto"))
        let (plain, found) = try diagnostics("[feedback]\nbeeper=off\n[touch]\ndevice=name:Goodix\n[display]\nconnector=auto\n")
        defer { ConfigFixtures.remove(String(plain.dropLast("/gridlock.conf".count))) }
        #expect(found.isEmpty)
        let parsed = ConfigLoader.run(path: plain).0
        #expect(parsed.feedback.beeper == .off && parsed.touch.device == .nameContaining("Goodix") && parsed.display.connector == .auto)
    }
}
