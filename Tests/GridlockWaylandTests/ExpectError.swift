import Testing

/// The error `body` throws if it is an `E`, else nil with an issue recorded: what
/// `#expect(throws: E.self)` returns from Swift Testing 6.1 on, for Swift 6.0, which the code
/// must still build with (docs/testing.md, "Two compilers"). The same in every test target.
func expectError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        Issue.record("expected \(E.self) to be thrown, but nothing was", sourceLocation: sourceLocation)
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected \(E.self) to be thrown, but \(error) was (\(Swift.type(of: error)))", sourceLocation: sourceLocation)
    }
    return nil
}
