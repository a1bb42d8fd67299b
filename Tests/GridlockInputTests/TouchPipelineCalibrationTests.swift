import GridlockCore
import GridlockInput
import Testing

@Suite("TouchPipeline: the calibration set aside while calibrating")
struct TouchPipelineCalibrationTests {
    @Test("set aside, the identity maps and the rotation and frame stay; applied again, the device's matrix maps as before")
    func calibrationSetAsideAndBack() throws {
        let device = try Fixtures.device("ft5406-multitouch")
        let shift = try CalibrationMatrix(a: 1, b: 0, c: 0.1, d: 0, e: 1, f: -0.05)
        var pipeline = try TouchPipeline(device: device, calibration: shift, rotation: .clockwise90, frame: Size(width: 480, height: 800))
        let calibrated = pipeline.mapper.point(x: 100, y: 200)
        pipeline.setCalibrated(false)
        #expect(pipeline.mapper.calibration == .identity)
        #expect(pipeline.mapper.rotation == .clockwise90 && pipeline.mapper.frame == Size(width: 480, height: 800))
        let raw = try CoordinateMapper(
            x: pipeline.mapper.x, y: pipeline.mapper.y, rotation: .clockwise90, frame: Size(width: 480, height: 800))
        #expect(pipeline.mapper.point(x: 100, y: 200) == raw.point(x: 100, y: 200))
        #expect(pipeline.mapper.point(x: 100, y: 200) != calibrated)
        pipeline.setCalibrated(true)
        #expect(pipeline.mapper.calibration == shift)
        #expect(pipeline.mapper.point(x: 100, y: 200) == calibrated)
    }
}
