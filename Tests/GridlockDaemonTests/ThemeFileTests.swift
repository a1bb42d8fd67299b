import Foundation
import GridlockCore
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
import GridlockRendering

/// The presentation-only file a face in a user session reads: how the lock looks, no secret.
@Suite struct ThemeFileTests {
    static let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    private func load(_ text: String) throws -> (path: String, result: Result<ThemeSettings, ConfigError>) {
        let folder = try ConfigFixtures.scratch(["theme.conf": text])
        defer { ConfigFixtures.remove(folder) }
        let path = "\(folder)/theme.conf"
        return (path, Result { () throws(ConfigError) in try ThemeFile.load(path: path, look: DecodingLookInspection()) })
    }

    @Test("a theme with [grid] and [display] is read with the daemon's schema")
    func aThemeIsAccepted() throws {
        let (_, result) = try load("[theme]\nnode=#112233\nprompt=Draw\n[grid]\nrows=4\ncolumns=4\n[display]\nrotation=90\n")
        let settings = try result.get()
        #expect(settings.theme.node == Color(red: 0x11, green: 0x22, blue: 0x33))
        #expect(settings.theme.prompt == "Draw")
        let fourByFour = try GridShape(rows: 4, columns: 4)  // outside #expect, for Swift 6.0
        #expect(settings.grid.shape == fourByFour)
        #expect(settings.display.rotation == .clockwise90)
    }

    @Test("a [pattern NAME] section is refused at its line, exit 78")
    func aPatternSectionIsRefused() throws {
        let (path, result) = try load("[theme]\nnode=#112233\n[pattern door]\nhash=\(Self.hash)\n")
        guard case .failure(let error) = result else { Issue.record("read a theme file holding a pattern"); return }
        #expect(error.diagnostics.map(\.location) == [SourceLocation(file: path, line: 3)])
        #expect(error.diagnostics.first?.message.hasPrefix("[pattern door] holds a pattern's hash") == true)
        #expect(error.exitStatus == 78)
    }

    @Test("a hash in a presentation section is refused at its line, not taken for an unknown key")
    func aHashIsRefused() throws {
        let (path, result) = try load("[theme]\nhash=\(Self.hash)\nprompt=\(Self.hash)\n")
        guard case .failure(let error) = result else { Issue.record("read a theme file holding a hash"); return }
        #expect(error.diagnostics.map(\.location) == [SourceLocation(file: path, line: 2), SourceLocation(file: path, line: 3)])
        #expect(error.diagnostics.allSatisfy { $0.message.contains("a pattern's hash has no place in a theme file") })
        #expect(error.exitStatus == 78)
    }

    @Test("[session] gives a face its socket and relock-after=, with no allow-users= of its own")
    func sessionSectionForTheFace() throws {
        let (_, result) = try load("[theme]\nnode=#112233\n[session]\nsocket=/run/gridlock/face.sock\nrelock-after=300\n")
        let settings = try result.get()
        #expect(settings.session.socket == "/run/gridlock/face.sock")
        #expect(settings.session.relockAfter == .seconds(300))
    }

    @Test("the shipped examples/face.conf is a theme file that loads")
    func theExampleLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let settings = try ThemeFile.load(path: root.appendingPathComponent("examples/face.conf").path, look: DecodingLookInspection())
        #expect(settings.session.relockAfter == .seconds(300))
    }

    @Test("allow-users= and allow-group= in a face's [session] are refused at their lines: they are gridlockd's")
    func sessionPeersAreRefused() throws {
        let (path, result) = try load("[session]\nallow-users=kiosk\nallow-group=kiosk\n")
        guard case .failure(let error) = result else { Issue.record("read a theme file saying whom gridlockd serves"); return }
        #expect(error.diagnostics.map(\.location) == [SourceLocation(file: path, line: 2), SourceLocation(file: path, line: 3)])
        #expect(error.diagnostics.allSatisfy { $0.message.contains("belongs in gridlockd's configuration") })
    }

    @Test("[security], [action], an [on EVENT] hook and [lockout] are refused at their lines", arguments: [
        "[security]\nargon2-ops=3\n", "[action]\ntimeout=5s\n", "[on unlock]\nexec=/bin/true\n", "[lockout]\nschedule=none\n",
    ])
    func daemonSectionsAreRefused(_ section: String) throws {
        let (path, result) = try load("[theme]\nnode=#112233\n" + section)
        guard case .failure(let error) = result else { Issue.record("read a theme file holding \(section)"); return }
        #expect(error.diagnostics.map(\.location) == [SourceLocation(file: path, line: 3)])
        #expect(error.diagnostics.first?.message.contains("a theme file holds only [theme], [grid], [display], [touch], [feedback] and [session]") == true)
    }

    @Test("the panel face's [touch] and [feedback] are read; a file that is not there is a verdict naming it, not the defaults")
    func panelSectionsAndTheVerdict() throws {
        let folder = try ConfigFixtures.scratch(["face.conf": "[touch]\ngrab=false\n[feedback]\nerror-ms=250\nbeeper=off\n"])
        defer { ConfigFixtures.remove(folder) }
        let (path, verdict) = ThemeFile.judge(named: "\(folder)/face.conf", look: DecodingLookInspection())
        #expect(path == "\(folder)/face.conf")
        let settings = try verdict.get()
        #expect(settings.touch.grab == false)
        #expect(settings.feedback.errorDuration == .milliseconds(250))
        #expect(settings.feedback.beeper == .off)
        let (missing, refused) = ThemeFile.judge(named: "\(folder)/none.conf", look: DecodingLookInspection())
        #expect(missing == "\(folder)/none.conf")
        guard case .failure(let error) = refused else { Issue.record("a missing face file named on the command line was taken as the defaults"); return }
        #expect(error.diagnostics.first?.location.file == "\(folder)/none.conf")
    }
}
