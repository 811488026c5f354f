/// The CFNetwork and Darwin versions of the iOS release whose `URLSession` the tool speaks as: one
/// constant, in one place.
enum DeviceVersions {
    /// iOS 18.6's pair. Darwin 24.6.0 is iOS 18.6 in The iPhone Wiki's kernel table
    /// (https://www.theiphonewiki.com/wiki/Kernel, the mapping ua-parser/uap-core cites for its
    /// CFNetwork rules, e.g. github.com/ua-parser/uap-core/pull/521); `CFNetwork/3826.600.41
    /// Darwin/24.6.0` is the pair devices on iOS 18.6 send, as captured user agents in public code show
    /// (e.g. `Lines/430 CFNetwork/3826.600.41 Darwin/24.6.0`, and a notification extension's
    /// `NotificationExtension/3 CFNetwork/3826.600.41.2.1 Darwin/24.6.0`).
    static let cfNetworkAndDarwin = "CFNetwork/3826.600.41 Darwin/24.6.0"
}
