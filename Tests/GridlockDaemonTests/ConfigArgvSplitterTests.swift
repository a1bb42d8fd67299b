import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

struct ConfigArgvSplitterTests {
    struct Split: Sendable, CustomTestStringConvertible {
        var text: String
        var argv: [String]
        var testDescription: String { text }
    }

    @Test("splits", arguments: [
        Split(text: "/bin/echo hello world", argv: ["/bin/echo", "hello", "world"]),
        Split(text: "  /bin/true \t ", argv: ["/bin/true"]),
        Split(text: #"/bin/echo "hello world""#, argv: ["/bin/echo", "hello world"]),
        Split(text: "/bin/echo 'single  quoted' x", argv: ["/bin/echo", "single  quoted", "x"]),
        Split(text: #"/bin/echo a"b c"d"#, argv: ["/bin/echo", "ab cd"]),
        Split(text: #"/bin/echo "" ''"#, argv: ["/bin/echo", "", ""]),
        Split(text: #"/bin/echo "it's" 'say "hi"'"#, argv: ["/bin/echo", "it's", #"say "hi""#]),
        Split(text: #"/bin/echo \"q\" \\ \' a\sb"#, argv: ["/bin/echo", #""q""#, #"\"#, "'", "a b"]),
        Split(text: #"/bin/echo \n\t "x\"y""#, argv: ["/bin/echo", "\n\t", #"x"y"#]),
        Split(text: "/bin/echo $(id) $HOME ${USER} %h `id`", argv: ["/bin/echo", "$(id)", "$HOME", "${USER}", "%h", "`id`"]),
        Split(text: #""/opt/my tools/run" --flag"#, argv: ["/opt/my tools/run", "--flag"]),
    ])
    func splits(_ split: Split) throws {
        #expect(try ArgvSplitter.split(split.text) == split.argv)
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var text: String
        var error: ArgvError
        var testDescription: String { text }
    }

    @Test("refuses", arguments: [
        Failure(text: #"/bin/echo "unbalanced"#, error: .unbalancedQuote("\"")),
        Failure(text: "/bin/echo 'unbalanced", error: .unbalancedQuote("'")),
        Failure(text: #"/bin/echo x\"#, error: .trailingBackslash),
        Failure(text: #"/bin/echo \q"#, error: .unknownEscape("q")),
        Failure(text: "echo hi", error: .relativeProgram("echo")),
        Failure(text: "./run", error: .relativeProgram("./run")),
        Failure(text: #"-/bin/true"#, error: .relativeProgram("-/bin/true")),
        Failure(text: "", error: .empty),
        Failure(text: "  \t", error: .empty),
    ])
    func refuses(_ failure: Failure) {
        #expect(throws: failure.error) { try ArgvSplitter.split(failure.text) }
    }

    @Test("messages say what to do") func messagesSayWhatToDo() {
        #expect(ArgvError.relativeProgram("echo").description.contains("absolute path"))
        #expect(ArgvError.unbalancedQuote("'").description == "a ' quote is never closed")
    }
}
