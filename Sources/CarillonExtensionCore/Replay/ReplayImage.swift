/// One notification a replay runs: its name on the line, the payload, and the URL looked for in the
/// capture (nil when the payload names none the extension would fetch).
package struct ReplayImage: Sendable {
    package var name: String
    package var payload: Payload
    package var url: String?
}
