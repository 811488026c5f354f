/// The reasons APNs answers a request it refuses, with their HTTP statuses, as Apple's "Handling
/// notification responses from APNs" lists them: the ones a request shows by itself. The others need
/// the credentials or the device (`ExpiredProviderToken`, `BadCertificateEnvironment`, `Unregistered`,
/// `TooManyRequests`…) and are never answered here: they are `unknown`.
package enum APNsReason: String, Sendable, CaseIterable, Equatable {
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    case payloadTooLarge = "PayloadTooLarge"

    /// The HTTP status APNs answers with it.
    package var status: Int {
        switch self {
        case .badPath: 404
        case .methodNotAllowed: 405
        case .payloadTooLarge: 413
        default: 400
        }
    }

    /// Apple's description of the reason.
    package var meaning: String {
        switch self {
        case .badCollapseId: "The collapse identifier exceeds the maximum allowed size."
        case .badDeviceToken:
            "The specified device token is invalid. Verify that the request contains a valid token and that the token matches the environment."
        case .badExpirationDate: "The apns-expiration value is invalid."
        case .badMessageId: "The apns-id value is invalid."
        case .badPriority: "The apns-priority value is invalid."
        case .badTopic: "The apns-topic value is invalid."
        case .deviceTokenNotForTopic: "The device token doesn't match the specified topic."
        case .duplicateHeaders: "One or more headers are repeated."
        case .invalidPushType: "The apns-push-type value is invalid."
        case .missingDeviceToken: "The device token isn't specified in the request :path."
        case .missingTopic: "The apns-topic header of the request isn't specified and is required."
        case .payloadEmpty: "The message payload is empty."
        case .badPath: "The request contained an invalid :path value."
        case .methodNotAllowed: "The specified :method value isn't POST."
        case .payloadTooLarge: "The message payload is too large."
        }
    }
}
