import LinuxSys

/// Keeps a loop watching exactly the descriptors a source holds now (a touch device
/// comes and goes, a display appears), each handled by `handler`.
final class DescriptorSync {
    private let loop: EventLoop
    private let cause: String
    private let handler: (FileDescriptor) -> Void
    private var watched: [EventLoop.Watching] = []
    private var generation = 0

    init(loop: EventLoop, cause: String, handler: @escaping (FileDescriptor) -> Void) {
        self.loop = loop
        self.cause = cause
        self.handler = handler
    }

    /// A changed `generation` re-registers even equal numbers: they may name new files.
    func sync(to wanted: [FileDescriptor], generation: Int = 0) {
        guard wanted != watched.map(\.descriptor) || generation != self.generation else { return }
        self.generation = generation
        // By registration: a closed descriptor's number may already be another part's.
        for watching in watched { loop.unwatch(watching) }
        watched = []
        for descriptor in wanted {
            do {
                watched.append(try loop.watch(descriptor, as: cause) { [unowned self] in handler(descriptor) })
            } catch {
                Journal.log(.error, "cannot watch the \(cause): \(error)")
            }
        }
    }

    func removeAll() { sync(to: [], generation: generation) }
}
