import GridlockCore
import GridlockDaemon
import GridlockDevices
import GridlockDisplay
import GridlockInput
import LinuxSys

extension DaemonParts {
    /// The parts of `gridlock replay`, by the same steps as gridlockd's: the loop, the state
    /// (a copy's, locked, or none), then what stands in for the devices: the recording as
    /// touch, in its own time, and its frames as PNG files or nowhere. No beeper, no
    /// systemd, no socket, no adopted orphans. The recording's source and the output come
    /// back as such: the replay reads the recording's time and its end, the frames' count.
    static func recording(
        _ options: ReplayRunner.Options
    ) throws(DaemonError) -> (parts: DaemonParts, recording: RecordingTouchSource, output: DisplayOutput) {
        let config = options.config
        let frame = config.display.logicalFrame
        let rotation = config.display.rotation
        let loop = try Self.loop()
        let pipeline: TouchPipeline
        do throws(PanelDeviceError) {
            pipeline = try PanelDevices.touchPipeline(for: config.touch, device: options.events.device, frame: frame, rotation: rotation)
        } catch {
            throw DaemonError(error)
        }
        let touch = RecordingTouchSource(events: options.events, pipeline: pipeline, start: nil)
        loop.playRecordedTime(from: touch.startTime)
        let state = try Self.state(at: options.statePath, for: config, by: "gridlock replay")
        let output: DisplayOutput = options.framesDirectory.map { PNGOutput(size: frame, directory: $0, rotation: rotation) }
            ?? NullOutput(size: frame, rotation: rotation)
        let supervisor = ActionSupervisor(loop: loop, mode: config.action.mode)
        // Actions take none of the recording's time, as verification takes none. Weakly: the
        // supervisor holds the loop, which would otherwise hold it back.
        loop.holdsRecordedTime = { [weak supervisor] in supervisor.map { !$0.isIdle } ?? false }
        let parts = DaemonParts(loop: loop, output: output, touch: touch, supervisor: supervisor, state: state, wallClock: options.wallClock)
        return (parts, touch, output)
    }
}
