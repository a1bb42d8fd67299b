/// The `MESSAGE_ID` of each kind of event gridlockd logs, so an audit can ask journald
/// for exactly one kind (`journalctl -u gridlockd MESSAGE_ID=a024b983...`). Made once with
/// `systemd-id128 new`; never change one: saved queries and dashboards name them.
public enum JournalCatalog {
    public static let start = "8b956feb24f744b2b7a94a43044168a8"
    public static let stop = "e5280e71ed55421eb1c719c7a6427c70"
    /// A pattern that was checked and refused, too short, or not checked.
    public static let attempt = "e09c69a37d814ceabb811644d02bec90"
    /// A pattern that was accepted: who opened the door, and when.
    public static let unlock = "a024b98382034749a4b5b4e444334750"
    public static let lockout = "17a8afd7a73f45389ab0f2ea2afad25c"
    public static let lockoutEnded = "96d6008feccb4d4f9750f01bcd31009b"
    public static let strokeCancelled = "803e25277cea4dbeba023587a28fadec"
    public static let enrollment = "7932cd2488b34cefacd2583bbb933e5f"
    public static let duress = "b30a64b73aae4ff9983fc96220dd1254"
    /// An action's program ended (its exit status).
    public static let actionExit = "f2e922be49534f69890c590297431018"
    /// The rest of an action's life: its output, handover, timeouts, a failed start.
    public static let action = "7af6aa12c2094218ae42951326c96f92"
    public static let touchDevice = "48da91bbbd8943bea72eeb13746a0ca8"
    public static let display = "8505503b2f0940b4a98e02f56249ec5f"
    /// An `[on EVENT]` hook: started, its output, its end, a timeout.
    public static let hook = "e1539ba1d9d34901b1cd020388a072a2"
    /// The touch device or the display went away while the lock showed, or a contact stuck.
    public static let tamper = "57063d9cbc834f008f494185e7f91278"

}
