import GridlockConfiguration
import Testing

/// `gridlock calibrate` through the panel's face sets one line in the face's file.
@Suite struct FaceFileCalibrationTests {
    let value = "1.02 0 -0.01 0 0.98 0.02"

    @Test("an existing calibration= under [touch] is replaced in place; comments, other sections and order are kept")
    func replacesInPlace() {
        let text = "# the lobby panel\n[display]\nrotation=90\n\n[touch]\ngrab=true\n  calibration = 1 0 0 0 1 0\n# keep me\n[grid]\ncalibration-ish=1\n"
        #expect(FaceFileCalibration.setting(value, in: text)
            == "# the lobby panel\n[display]\nrotation=90\n\n[touch]\ngrab=true\ncalibration=\(value)\n# keep me\n[grid]\ncalibration-ish=1\n")
    }

    @Test("a later calibration= in another [touch] section is commented out, since the reader would take the last")
    func laterOnesCommentedOut() {
        let text = "[touch]\ncalibration=1 0 0 0 1 0\n[grid]\nrows=3\n[touch]\ncalibration=2 0 0 0 2 0"
        #expect(FaceFileCalibration.setting(value, in: text)
            == "[touch]\ncalibration=\(value)\n[grid]\nrows=3\n[touch]\n# calibration=2 0 0 0 2 0  (set above by gridlock calibrate)\n")
    }

    @Test("without the key it is added under the first [touch]; without [touch] a section is appended; an empty file gets just that")
    func addedWhereMissing() {
        #expect(FaceFileCalibration.setting(value, in: "[touch]\ngrab=false\n") == "[touch]\ncalibration=\(value)\ngrab=false\n")
        #expect(FaceFileCalibration.setting(value, in: "[grid]\nrows=4\n") == "[grid]\nrows=4\n\n[touch]\ncalibration=\(value)\n")
        #expect(FaceFileCalibration.setting(value, in: "") == "[touch]\ncalibration=\(value)\n")
        // A key commented out is not the key; a [touch] header with spaces is the section.
        #expect(FaceFileCalibration.setting(value, in: "[ touch ]\n# calibration=1 0 0 0 1 0\n")
            == "[ touch ]\ncalibration=\(value)\n# calibration=1 0 0 0 1 0\n")
    }
}
