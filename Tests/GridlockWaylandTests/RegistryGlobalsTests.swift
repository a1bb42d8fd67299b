import GridlockWayland
import LinuxSys
import Testing

@Suite struct RegistryGlobalsTests {
    static let sway = RegistryGlobals([
        RegistryGlobal(name: 1, interface: "wl_shm", version: 1),
        RegistryGlobal(name: 2, interface: "wl_compositor", version: 6),
        RegistryGlobal(name: 7, interface: "wl_output", version: 4),
        RegistryGlobal(name: 5, interface: "wl_output", version: 4),
        RegistryGlobal(name: 9, interface: "ext_session_lock_manager_v1", version: 1),
    ])

    @Test("a compositor with every required global leaves nothing unmet")
    func everythingThere() {
        #expect(Self.sway.unmet(RequiredGlobals.lockFace).isEmpty)
    }

    @Test("a missing global is named, and one too old names the version needed and the one offered")
    func missingAndTooOld() {
        var weston = Self.sway
        weston.remove(name: 9)
        weston.add(RegistryGlobal(name: 2, interface: "wl_compositor", version: 3))
        #expect(weston.unmet(RequiredGlobals.lockFace) == ["wl_compositor version 4 (has 3)", "ext_session_lock_manager_v1"])
    }

    @Test("a missing session lock says which compositors offer it")
    func missingSessionLockNamesCompositors() {
        let text = WaylandError.missingProtocols(["ext_session_lock_manager_v1"]).description
        #expect(text.contains("ext_session_lock_manager_v1"))
        #expect(text.contains("sway 1.8+"))
        #expect(text.contains("labwc 0.6+"))
        #expect(text.contains("not by cage, weston or GNOME"))
        #expect(!WaylandError.missingProtocols(["wl_shm"]).description.contains("sway"))
    }

    @Test("globals of one interface come in announcement order, and a removed one is gone")
    func allInAnnouncementOrder() {
        var globals = Self.sway
        #expect(globals.all("wl_output").map(\.name) == [5, 7])
        #expect(globals.remove(name: 5)?.interface == "wl_output")
        #expect(globals.all("wl_output").map(\.name) == [7])
        #expect(globals.remove(name: 5) == nil)
    }

    @Test("a global is bound at the newest version both sides know")
    func bindVersion() {
        let output = RegistryGlobal(name: 7, interface: "wl_output", version: 4)
        #expect(RequiredGlobals.bindVersion(output, RequiredGlobals.output) == 4)
        let newer = RegistryGlobal(name: 2, interface: "wl_compositor", version: 6)
        #expect(RequiredGlobals.bindVersion(newer, RequiredGlobals.lockFace[0]) == 4)
        let oldSeat = RegistryGlobal(name: 3, interface: "wl_seat", version: 3)
        #expect(RequiredGlobals.bindVersion(oldSeat, RequiredGlobals.seat) == 3)
    }

    @Test("the socket named in errors is WAYLAND_DISPLAY under XDG_RUNTIME_DIR, or as given when absolute")
    func socketPath() {
        func path(_ environment: [String: String]) -> String { WaylandSocket.path { environment[$0] } }
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/wayland-0")
        #expect(path(["XDG_RUNTIME_DIR": "/run/user/1000/", "WAYLAND_DISPLAY": "wayland-1"]) == "/run/user/1000/wayland-1")
        #expect(path(["WAYLAND_DISPLAY": "/tmp/w"]) == "/tmp/w")
        #expect(path(["WAYLAND_DISPLAY": "wayland-1"]) == "wayland-1 (XDG_RUNTIME_DIR is not set)")
        let error = WaylandError.noCompositor(socket: "/run/user/1000/wayland-0", errno: .noSuchFile)
        #expect(error.description.contains("/run/user/1000/wayland-0"))
        #expect(error.description.contains("ENOENT"))
    }
}
