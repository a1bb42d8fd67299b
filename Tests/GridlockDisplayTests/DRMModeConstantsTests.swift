import CDRM
import GridlockDisplay
import Testing

/// The KMS numbers GridlockDisplay spells out itself, so that its decisions need no C
/// headers, must be the kernel's.
@Suite("DRM mode constants")
struct DRMModeConstantsTests {
    @Test("connector types, DPMS values and mode type bits match libdrm's drm_mode.h")
    func matchTheHeader() {
        #expect(DRMModeConstants.DRM_MODE_CONNECTOR_LVDS == UInt32(DRM_MODE_CONNECTOR_LVDS))
        #expect(DRMModeConstants.DRM_MODE_CONNECTOR_eDP == UInt32(DRM_MODE_CONNECTOR_eDP))
        #expect(DRMModeConstants.DRM_MODE_CONNECTOR_DSI == UInt32(DRM_MODE_CONNECTOR_DSI))
        #expect(DRMModeConstants.DRM_MODE_CONNECTOR_DPI == UInt32(DRM_MODE_CONNECTOR_DPI))
        #expect(DRMModeConstants.DRM_MODE_CONNECTOR_WRITEBACK == UInt32(DRM_MODE_CONNECTOR_WRITEBACK))
        #expect(DRMModeConstants.DRM_MODE_DPMS_ON == UInt64(DRM_MODE_DPMS_ON))
        #expect(DRMModeConstants.DRM_MODE_DPMS_OFF == UInt64(DRM_MODE_DPMS_OFF))
        #expect(KMSMode.typePreferred == UInt32(DRM_MODE_TYPE_PREFERRED))
        #expect(KMSMode.typeUserDefined == UInt32(DRM_MODE_TYPE_USERDEF))
    }

    @Test("connector names follow the same numbering")
    func namesFollowTheNumbers() {
        #expect(KMSConnector.typeName(DRMModeConstants.DRM_MODE_CONNECTOR_eDP) == "eDP")
        #expect(KMSConnector.typeName(DRMModeConstants.DRM_MODE_CONNECTOR_WRITEBACK) == "Writeback")
    }
}
