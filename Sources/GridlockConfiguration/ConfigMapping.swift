import GridlockCore

extension GridlockConfig {
    /// The machine's view of the config.
    public var lockSettings: LockSettings {
        var settings = LockSettings()
        settings.minimumNodes = grid.minNodes
        settings.showPath = grid.showPath
        settings.errorDuration = feedback.errorDuration
        settings.successDuration = feedback.successDuration
        settings.schedule = lockout.schedule
        settings.stuckTouchTimeout = touch.stuckTouch > .zero ? touch.stuckTouch : nil
        return settings
    }

    /// The grid on a logical frame of `size`. The loader already checked the fractions.
    public func gridLayout(frame size: Size) -> GridLayout {
        try! GridLayout(
            shape: grid.shape,
            frame: Rect(origin: .zero, size: size),
            sizeFraction: grid.sizeFraction,
            hitRadiusFraction: grid.hitRadiusFraction
        )
    }

    /// The cost for new hashes: the defaults, with `[security] argon2-ops=`/`argon2-mem=` applied.
    public var argon2Cost: Argon2Cost {
        var cost = Argon2Cost.default
        if let ops = security.argon2Ops { cost.opsLimit = UInt64(ops) }
        if let mem = security.argon2MemKiB { cost.memoryKiB = UInt64(mem) }
        return cost
    }
}
