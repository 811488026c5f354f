/// A notification as the lock screen shows it: the banner (app name, title on one line, subtitle, the
/// body cut after four lines, the attachment's thumbnail at the trailing edge) and the expanded view
/// (the image full width above the whole text). Without an attachment (a fallback, or not routed) it is
/// the notification exactly as delivered: the same text, no image.
///
/// Long text is clamped as iOS clamps it: the banner's title and subtitle on one line each and its body
/// after four lines; the expanded view's title and subtitle after three lines and its body after
/// ``expandedBodyLines`` (Apple documents no figure: iOS "truncates your message so that it fits well in
/// each notification delivery style"; the expanded view is as tall as a screen at most), so that a
/// 5,000-character body makes a card of a screen's height, not 3,000 px.
enum NotificationPreview {
    /// Lines of body the expanded view shows before it cuts.
    static let expandedBodyLines = 16

    /// - Parameters:
    ///   - hasImage: whether the card's image class (``ReportImages``) paints a thumbnail and a hero.
    static func html(appName: String, title: String, subtitle: String, body: String, hasImage: Bool) -> String {
        let app = HTMLEscaping.isolated(appName)
        var text = ""
        if !title.isEmpty { text += "<div class=\"n-title\">\(HTMLEscaping.isolated(title))</div>" }
        if !subtitle.isEmpty { text += "<div class=\"n-subtitle\">\(HTMLEscaping.isolated(subtitle))</div>" }
        if !body.isEmpty { text += "<div class=\"n-body\">\(HTMLEscaping.isolated(body))</div>" }
        if text.isEmpty { text = "<div class=\"n-empty\">(no text: a localisation key this tool cannot resolve)</div>" }
        let header =
            "<div class=\"n-head\"><span class=\"n-icon\"></span><span class=\"n-app\">\(app)</span><span class=\"n-time\">now</span></div>"
        let banner =
            "<div class=\"banner\">\(header)<div class=\"n-row\"><div class=\"n-text\">\(text)</div>"
            + (hasImage ? "<div class=\"thumb\"></div>" : "") + "</div></div>"
        let expanded =
            "<div class=\"expanded\">" + (hasImage ? "<div class=\"hero\"></div>" : "")
            + "\(header)<div class=\"n-text full\">\(text)</div></div>"
        return "<div class=\"preview\"><div class=\"shot\"><div class=\"caption\">banner</div>\(banner)</div>"
            + "<div class=\"shot\"><div class=\"caption\">expanded</div>\(expanded)</div></div>"
    }
}
