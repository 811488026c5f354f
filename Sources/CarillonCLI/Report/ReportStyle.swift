/// The report's one style sheet, inline (the page's Content-Security-Policy allows inline styles and
/// nothing from anywhere else). Colours stay clear of pure red, green and blue, which the browser test
/// uses to find the attached images in a screenshot.
enum ReportStyle {
    static let css = """
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.4 -apple-system,system-ui,"Helvetica Neue",Arial,sans-serif;background:#eceef2;color:#1d1d1f}
        header{padding:16px 20px;background:#26292f;color:#f5f5f7}
        header h1{margin:0 0 4px;font-size:18px}
        .stats{margin:0 0 10px;color:#c7c9ce}
        .filters{display:flex;flex-wrap:wrap;gap:6px}
        .filters label{cursor:pointer;padding:3px 10px;border-radius:12px;background:#3a3e46;color:#f5f5f7;font-size:13px}
        .filter-input{position:absolute;opacity:0;pointer-events:none}
        main{padding:12px 20px;display:flex;flex-direction:column;gap:14px}
        .card{background:#fff;border-radius:12px;padding:12px 14px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        .card h2{margin:0 0 10px;font-size:14px;font-weight:600;word-break:break-all}
        .reason{display:inline-block;padding:1px 8px;border-radius:10px;background:#8a5a12;color:#fff;font-size:12px}
        .r-attached{background:#2f6f4f}
        .r-invalid-payload{background:#5b5b66}
        .path{font-family:ui-monospace,Menlo,monospace;font-weight:400;color:#444}
        .card-body{display:flex;flex-wrap:wrap;gap:16px}
        .preview{display:flex;gap:14px;flex-wrap:wrap}
        .preview.none{color:#555;font-style:italic;max-width:360px}
        .shot{width:320px}
        .caption{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#777;margin-bottom:4px}
        .banner,.expanded{background:linear-gradient(#d9d6df,#cfd3dc);border-radius:18px;padding:10px 12px;color:#111;overflow:hidden}
        .expanded{padding:0 0 10px}
        .expanded .n-head,.expanded .n-text{padding:0 12px}
        .expanded .n-head{padding-top:10px}
        .n-head{display:flex;align-items:center;gap:6px;font-size:12px;color:#4a4a50;margin-bottom:3px}
        .n-icon{width:18px;height:18px;border-radius:5px;background:linear-gradient(#f0b34a,#d9822b);flex:none}
        .n-app{text-transform:uppercase;letter-spacing:.03em;flex:1;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
        .n-row{display:flex;gap:10px;align-items:flex-start}
        .n-text{flex:1;min-width:0}
        .n-title{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .n-subtitle{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .n-body{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:4;overflow:hidden;white-space:pre-wrap;overflow-wrap:anywhere}
        .full .n-title,.full .n-subtitle{white-space:normal;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;overflow:hidden}
        .full .n-body{-webkit-line-clamp:\(NotificationPreview.expandedBodyLines)}
        .n-empty{color:#666;font-style:italic}
        .thumb{width:40px;height:40px;border-radius:7px;flex:none;background-size:cover;background-position:center}
        .hero{width:100%;aspect-ratio:4/3;max-height:320px;background-size:contain;background-repeat:no-repeat;background-position:center;background-color:#111}
        .outcome{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:0;min-width:260px;flex:1;align-content:start}
        .outcome dt{color:#666}
        .outcome dd{margin:0;overflow-wrap:anywhere}
        .warnings{margin:0 0 10px;padding-left:18px;color:#8a5a12}
        .card-extra{margin-top:10px;border-top:1px solid #eee;padding-top:8px}.card-extra h3{margin:0 0 4px;font-size:13px}
        .waterfall{margin-top:12px;font-size:12px}
        .hop{margin-bottom:6px}
        .hop-label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .url{font-family:ui-monospace,Menlo,monospace;color:#555}
        .track{position:relative;height:14px;background:#f1f2f5;border-radius:3px;margin:2px 0}
        .track.zoom{height:8px;background:#f7f7f9}
        .zoom .seg{top:1px;height:6px}
        .seg{position:absolute;top:2px;height:10px;min-width:2px}
        .seg.dns{background:#4f9d9a}.seg.connect{background:#e0a03a}.seg.tls{background:#9467bd}
        .seg.waiting{background:#8fa3bf}.seg.body{background:#2e7d5b}
        .mark{position:absolute;top:-2px;bottom:-2px;width:2px}
        .mark.budget{background:#b8860b}.mark.expire{background:#6b2737}
        .hop-times,.axis{color:#666}
        .legend span{display:inline-block;margin-right:10px}
        .legend i{display:inline-block;position:static;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
        """
}
