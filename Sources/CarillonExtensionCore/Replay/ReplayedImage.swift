/// One image replayed: the notification's result (the verdict, its trace), the payload it was made
/// from, where the verdict came from (``ReplayFacts``) and the verdict a carillon recording holds.
package struct ReplayedImage: Sendable {
    /// The notification's name on the line.
    package var name: String
    package var payload: Payload
    package var result: ServiceResult
    package var facts: ReplayFacts
    /// The line the live run printed, when the capture is a carillon recording that kept it.
    package var recordedVerdict: JSONValue?
}
