# fish completion for carillon-nse, generated from its option declarations: carillon-nse completions fish
# Use: save it as ~/.config/fish/completions/carillon-nse.fish

# Whether no command is on the line yet.
function __carillon_nse_needs_command
    test (count (commandline -opc)) -eq 1
end

# Whether the line's command (its first word after the tool's name) is $argv[1].
function __carillon_nse_command
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = $argv[1]
end

complete -c carillon-nse -f
complete -c carillon-nse -n __carillon_nse_needs_command -a process -d 'Run payload files through the extension; one JSON line per payload.'
complete -c carillon-nse -n __carillon_nse_needs_command -a check -d 'Check image URLs: each as the payload Carillon\'s server sends, through process\'s pipeline.'
complete -c carillon-nse -n __carillon_nse_needs_command -a replay -d 'Give the extension\'s verdict from a HAR capture, offline; one JSON line per image.'
complete -c carillon-nse -n __carillon_nse_needs_command -a drain -d 'Move pending receipts from the container into the app\'s event queue.'
complete -c carillon-nse -n __carillon_nse_needs_command -a open -d 'Queue opened events for payloads, as didOpen(userInfo:).'
complete -c carillon-nse -n __carillon_nse_needs_command -a present -d 'Queue received events for payloads, as willPresent(userInfo:).'
complete -c carillon-nse -n __carillon_nse_needs_command -a scan -d 'Queue received events for notifications still in Notification Center.'
complete -c carillon-nse -n __carillon_nse_needs_command -a batches -d 'Print the pending POST /v1/events bodies, one per line.'
complete -c carillon-nse -n __carillon_nse_needs_command -a upload -d 'Send the queued events to POST /v1/events, removing each batch once acknowledged.'
complete -c carillon-nse -n __carillon_nse_needs_command -a readback -d 'Read a message back from the API (GET /v1/messages/{id}) and check every sent event against it.'
complete -c carillon-nse -n __carillon_nse_needs_command -a summary -d 'Merge the campaign summaries of N shards (process --summary) into one.'
complete -c carillon-nse -n __carillon_nse_needs_command -a merge -d 'Join the result bundles of a campaign\'s shards (process --bundle) into what one unsharded run writes.'
complete -c carillon-nse -n __carillon_nse_needs_command -a doctor -d 'Check a built app (.ipa, .app, .xcarchive or a zip of one) against what the extension needs.'
complete -c carillon-nse -n __carillon_nse_needs_command -a completions -d 'Print the shell completion script for bash, zsh or fish.'
complete -c carillon-nse -n __carillon_nse_needs_command -a help -d 'Show a command\'s help.'
complete -c carillon-nse -n __carillon_nse_needs_command -l help -d 'Show this help, or a command\'s help after the command\'s name.'
complete -c carillon-nse -n __carillon_nse_needs_command -l version -d 'Show the version of carillon-nse and of libcurl.'
complete -c carillon-nse -n '__carillon_nse_command help' -a 'process check replay drain open present scan batches upload readback summary merge doctor completions'

complete -c carillon-nse -n '__carillon_nse_command process' -l container -x -a '(__fish_complete_directories)' -d 'Shared container for receipts (the App Group). Without it, no receipts.'
complete -c carillon-nse -n '__carillon_nse_command process' -l attachments -x -a '(__fish_complete_directories)' -d 'Keep each payload\'s attachment file in DIR.'
complete -c carillon-nse -n '__carillon_nse_command process' -l ca-file -r -F -d 'Extra certificate authorities to trust (tests, staging). Verification stays on.'
complete -c carillon-nse -n '__carillon_nse_command process' -l budget -x -d 'Time budget of each image download, redirects included; at least 0.001 (default 20).'
complete -c carillon-nse -n '__carillon_nse_command process' -l max-bytes -x -d 'Size cap of each image in bytes (default 10485760).'
complete -c carillon-nse -n '__carillon_nse_command process' -l tls-minimum -x -a '1.0 1.1 1.2 1.3' -d 'Lowest TLS version accepted, as NSExceptionMinimumTLSVersion (default 1.2).'
complete -c carillon-nse -n '__carillon_nse_command process' -l no-forward-secrecy -d 'Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO.'
complete -c carillon-nse -n '__carillon_nse_command process' -l user-agent -x -d 'The User-Agent sent (default CarillonNotificationService/0.1.0 CFNetwork/3826.600.41 Darwin/24.6.0, as iOS 18.6 sends it).'
complete -c carillon-nse -n '__carillon_nse_command process' -l accept-language -x -d 'The Accept-Language sent (default en-US,en;q=0.9).'
complete -c carillon-nse -n '__carillon_nse_command process' -l header -x -d 'Send this header field too, or instead of the default of that name (repeatable; CDN debugging).'
complete -c carillon-nse -n '__carillon_nse_command process' -l expire-after -x -d 'When time-will-expire fires after delivery, as on iOS (default 30).'
complete -c carillon-nse -n '__carillon_nse_command process' -l jobs -x -d 'Payloads processed concurrently; output order is unchanged (default 1).'
complete -c carillon-nse -n '__carillon_nse_command process' -l recursive -d 'Also take the payload files of a directory\'s subdirectories, in sorted order.'
complete -c carillon-nse -n '__carillon_nse_command process' -l format -x -a 'json text junit' -d 'JSON Lines, a readable block per payload, or JUnit XML (one test case per payload, printed at the end) (default json).'
complete -c carillon-nse -n '__carillon_nse_command process' -l fail-on -x -d 'Exit 2 when an outcome is one of these comma-separated reason codes (\'fallback\': all but attached), or a request\'s verdict is apns-refused or not-shown.'
complete -c carillon-nse -n '__carillon_nse_command process' -l report -r -F -d 'Also write one self-contained HTML page: each notification as iOS shows it, its outcome and its trace.'
complete -c carillon-nse -n '__carillon_nse_command process' -l app-name -x -d 'The app name the report\'s previews show (default Carillon).'
complete -c carillon-nse -n '__carillon_nse_command process' -l app -r -F -d 'Make every verdict this built app\'s (.ipa, .app, .xcarchive or a zip of one): its extension\'s ATS and User-Agent.'
complete -c carillon-nse -n '__carillon_nse_command process' -l lines -d 'Standard input (-) is JSON Lines: one payload per line, named -:LINE (*.jsonl and *.ndjson files always are).'
complete -c carillon-nse -n '__carillon_nse_command process' -l no-share -d 'Fetch every payload\'s image itself, not once per distinct image.'
complete -c carillon-nse -n '__carillon_nse_command process' -l shard -x -d 'Only the payloads that fall to shard K of N, 0 <= K < N; auto: K and N from the job runner\'s variables.'
complete -c carillon-nse -n '__carillon_nse_command process' -l shard-by -x -a 'position image' -d 'With --shard: split by input position, or by image, so that each distinct image is fetched by one shard only (default position).'
complete -c carillon-nse -n '__carillon_nse_command process' -l bundle -r -F -d 'Also write this shard\'s result bundle, for \'carillon-nse merge\': the lines, the per-image summary, K/N and the rule.'
complete -c carillon-nse -n '__carillon_nse_command process' -l summary -r -F -d 'Also write the campaign summary: each distinct image\'s verdict, counts per reason.'
complete -c carillon-nse -n '__carillon_nse_command process' -l record -x -a '(__fish_complete_directories)' -d 'Also write each payload\'s download as a HAR 1.2 file in DIR (opens in Chrome or Proxyman).'
complete -c carillon-nse -n '__carillon_nse_command process' -l record-inline -x -d 'Largest body kept inside the HAR; a larger one goes to DIR/bodies/ (default 2097152).'
complete -c carillon-nse -n '__carillon_nse_command process' -l record-keep-secrets -d 'Keep Authorization, Cookie, Set-Cookie, signed-URL parameters and alert text in recordings.'
complete -c carillon-nse -n '__carillon_nse_command process' -l content-categories -x -d 'Categories a content extension claims, comma-separated (NAME:hidden when its default content is hidden).'
complete -c carillon-nse -n '__carillon_nse_command process' -l previews -x -a 'unknown always when-unlocked never' -d 'The device\'s Show Previews setting, which decides whether the lock screen shows the image (default unknown).'
complete -c carillon-nse -n '__carillon_nse_command process' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command process' -F

complete -c carillon-nse -n '__carillon_nse_command check' -l attachments -x -a '(__fish_complete_directories)' -d 'Keep each payload\'s attachment file in DIR.'
complete -c carillon-nse -n '__carillon_nse_command check' -l ca-file -r -F -d 'Extra certificate authorities to trust (tests, staging). Verification stays on.'
complete -c carillon-nse -n '__carillon_nse_command check' -l budget -x -d 'Time budget of each image download, redirects included; at least 0.001 (default 20).'
complete -c carillon-nse -n '__carillon_nse_command check' -l max-bytes -x -d 'Size cap of each image in bytes (default 10485760).'
complete -c carillon-nse -n '__carillon_nse_command check' -l tls-minimum -x -a '1.0 1.1 1.2 1.3' -d 'Lowest TLS version accepted, as NSExceptionMinimumTLSVersion (default 1.2).'
complete -c carillon-nse -n '__carillon_nse_command check' -l no-forward-secrecy -d 'Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO.'
complete -c carillon-nse -n '__carillon_nse_command check' -l user-agent -x -d 'The User-Agent sent (default CarillonNotificationService/0.1.0 CFNetwork/3826.600.41 Darwin/24.6.0, as iOS 18.6 sends it).'
complete -c carillon-nse -n '__carillon_nse_command check' -l accept-language -x -d 'The Accept-Language sent (default en-US,en;q=0.9).'
complete -c carillon-nse -n '__carillon_nse_command check' -l header -x -d 'Send this header field too, or instead of the default of that name (repeatable; CDN debugging).'
complete -c carillon-nse -n '__carillon_nse_command check' -l expire-after -x -d 'When time-will-expire fires after delivery, as on iOS (default 30).'
complete -c carillon-nse -n '__carillon_nse_command check' -l jobs -x -d 'Payloads processed concurrently; output order is unchanged (default 1).'
complete -c carillon-nse -n '__carillon_nse_command check' -l format -x -a 'json text junit' -d 'JSON Lines, a readable block per payload, or JUnit XML (one test case per payload, printed at the end) (default json).'
complete -c carillon-nse -n '__carillon_nse_command check' -l fail-on -x -d 'Exit 2 when an outcome is one of these comma-separated reason codes (\'fallback\': all but attached), or a request\'s verdict is apns-refused or not-shown.'
complete -c carillon-nse -n '__carillon_nse_command check' -l report -r -F -d 'Also write one self-contained HTML page: each notification as iOS shows it, its outcome and its trace.'
complete -c carillon-nse -n '__carillon_nse_command check' -l app-name -x -d 'The app name the report\'s previews show (default Carillon).'
complete -c carillon-nse -n '__carillon_nse_command check' -l app -r -F -d 'Make every verdict this built app\'s (.ipa, .app, .xcarchive or a zip of one): its extension\'s ATS and User-Agent.'
complete -c carillon-nse -n '__carillon_nse_command check' -l no-share -d 'Fetch every payload\'s image itself, not once per distinct image.'
complete -c carillon-nse -n '__carillon_nse_command check' -l shard -x -d 'Only the payloads that fall to shard K of N, 0 <= K < N; auto: K and N from the job runner\'s variables.'
complete -c carillon-nse -n '__carillon_nse_command check' -l shard-by -x -a 'position image' -d 'With --shard: split by input position, or by image, so that each distinct image is fetched by one shard only (default position).'
complete -c carillon-nse -n '__carillon_nse_command check' -l bundle -r -F -d 'Also write this shard\'s result bundle, for \'carillon-nse merge\': the lines, the per-image summary, K/N and the rule.'
complete -c carillon-nse -n '__carillon_nse_command check' -l summary -r -F -d 'Also write the campaign summary: each distinct image\'s verdict, counts per reason.'
complete -c carillon-nse -n '__carillon_nse_command check' -l record -x -a '(__fish_complete_directories)' -d 'Also write each payload\'s download as a HAR 1.2 file in DIR (opens in Chrome or Proxyman).'
complete -c carillon-nse -n '__carillon_nse_command check' -l record-inline -x -d 'Largest body kept inside the HAR; a larger one goes to DIR/bodies/ (default 2097152).'
complete -c carillon-nse -n '__carillon_nse_command check' -l record-keep-secrets -d 'Keep Authorization, Cookie, Set-Cookie, signed-URL parameters and alert text in recordings.'
complete -c carillon-nse -n '__carillon_nse_command check' -l content-categories -x -d 'Categories a content extension claims, comma-separated (NAME:hidden when its default content is hidden).'
complete -c carillon-nse -n '__carillon_nse_command check' -l previews -x -a 'unknown always when-unlocked never' -d 'The device\'s Show Previews setting, which decides whether the lock screen shows the image (default unknown).'
complete -c carillon-nse -n '__carillon_nse_command check' -l help -d 'Show this help.'

complete -c carillon-nse -n '__carillon_nse_command replay' -l payload -r -F -d 'The payload the device received, routed as process routes it; its image is looked for in the HAR.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l url -x -d 'Replay this image URL, as the image of a routed payload.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l entry -x -d 'Replay entry N of the file (counted from 0, in file order).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l list -d 'Print one JSON line per entry of the file instead of verdicts.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l at -x -d 'The instant certificates and clocks are judged at (default recorded).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l latin1-bodies -d 'Read an image body written as text without an encoding as Latin-1 bytes (ProxyPin).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l chain -r -F -d 'Judge the first host\'s certificates from this chain (leaf first), as the HAR has none.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l match-ignore-query -x -d 'Also ignore this query parameter when matching URLs to entries (repeatable; adds to the defaults, never replaces them).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l check -d 'Compare with the verdict and trace a carillon recording holds; exit 3 when they differ.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l format -x -a 'json text' -d 'JSON Lines, or process\'s readable block per image with the replay\'s own lines after it (default json).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l budget -x -d 'Time budget of each image download, redirects included; at least 0.001 (default 20).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l max-bytes -x -d 'Size cap of each image in bytes (default 10485760).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l tls-minimum -x -a '1.0 1.1 1.2 1.3' -d 'Lowest TLS version accepted, as NSExceptionMinimumTLSVersion (default 1.2).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l no-forward-secrecy -d 'Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l ca-file -r -F -d 'Extra certificate authorities to trust (tests, staging). Verification stays on.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l expire-after -x -d 'When time-will-expire fires after delivery, as on iOS (default 30).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l user-agent -x -d 'The User-Agent sent (default CarillonNotificationService/0.1.0 CFNetwork/3826.600.41 Darwin/24.6.0, as iOS 18.6 sends it).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l fail-on -x -d 'Exit 2 when an outcome is one of these comma-separated reason codes (\'fallback\': all but attached).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l attachments -x -a '(__fish_complete_directories)' -d 'Keep each payload\'s attachment file in DIR.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l report -r -F -d 'Also write one self-contained HTML page: each notification as iOS shows it, its outcome and its trace.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l app-name -x -d 'The app name the report\'s previews show (default Carillon).'
complete -c carillon-nse -n '__carillon_nse_command replay' -l app -r -F -d 'Make every verdict this built app\'s (.ipa, .app, .xcarchive or a zip of one): its extension\'s ATS and User-Agent.'
complete -c carillon-nse -n '__carillon_nse_command replay' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command replay' -F

complete -c carillon-nse -n '__carillon_nse_command drain' -l container -x -a '(__fish_complete_directories)' -d 'The shared container the extension writes receipts to.'
complete -c carillon-nse -n '__carillon_nse_command drain' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue (created if missing).'
complete -c carillon-nse -n '__carillon_nse_command drain' -l help -d 'Show this help.'

complete -c carillon-nse -n '__carillon_nse_command open' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue (created if missing).'
complete -c carillon-nse -n '__carillon_nse_command open' -l at -x -d 'The tap\'s instant, e.g. 2026-08-20T09:16:44.120Z (default now).'
complete -c carillon-nse -n '__carillon_nse_command open' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command open' -F

complete -c carillon-nse -n '__carillon_nse_command present' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue (created if missing).'
complete -c carillon-nse -n '__carillon_nse_command present' -l at -x -d 'The instant the notification reached willPresent, e.g. 2026-08-20T09:16:44.120Z (default now).'
complete -c carillon-nse -n '__carillon_nse_command present' -l suppress -d 'Model an onReceived handler that shows nothing (presentation []); the receipt is queued all the same.'
complete -c carillon-nse -n '__carillon_nse_command present' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command present' -F

complete -c carillon-nse -n '__carillon_nse_command scan' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue (created if missing).'
complete -c carillon-nse -n '__carillon_nse_command scan' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command scan' -F

complete -c carillon-nse -n '__carillon_nse_command batches' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue.'
complete -c carillon-nse -n '__carillon_nse_command batches' -l help -d 'Show this help.'

complete -c carillon-nse -n '__carillon_nse_command upload' -l queue -x -a '(__fish_complete_directories)' -d 'The app\'s persistent event queue.'
complete -c carillon-nse -n '__carillon_nse_command upload' -l endpoint -x -d 'The API\'s base URL (https only); requests go to URL/v1/events.'
complete -c carillon-nse -n '__carillon_nse_command upload' -l key-file -r -F -d 'A file whose first line is the mobile key (else $CARILLON_MOBILE_KEY).'
complete -c carillon-nse -n '__carillon_nse_command upload' -l ca-file -r -F -d 'Extra certificate authorities to trust (tests, staging). Verification stays on.'
complete -c carillon-nse -n '__carillon_nse_command upload' -l max-attempts -x -d 'Requests per batch at most, the first included (default 5).'
complete -c carillon-nse -n '__carillon_nse_command upload' -l deadline -x -d 'Wall time for the whole upload, every wait included (default 60).'
complete -c carillon-nse -n '__carillon_nse_command upload' -l sent-log -r -F -d 'Append a JSON line per event the API acknowledged (type, delivery_id, at, posted_at, sent_at), durably.'
complete -c carillon-nse -n '__carillon_nse_command upload' -l help -d 'Show this help.'

complete -c carillon-nse -n '__carillon_nse_command readback' -l endpoint -x -d 'The API\'s base URL (https only); reads URL/v1/messages/ID.'
complete -c carillon-nse -n '__carillon_nse_command readback' -l message -x -d 'The message (campaign) to read back.'
complete -c carillon-nse -n '__carillon_nse_command readback' -l sent-log -r -F -d 'The log \'upload --sent-log\' wrote: a verdict for every event in it.'
complete -c carillon-nse -n '__carillon_nse_command readback' -l opens -d 'Also read the hourly opens (needs the deliveries:read scope).'
complete -c carillon-nse -n '__carillon_nse_command readback' -l key-file -r -F -d 'A file whose first line is the secret key (else $CARILLON_SECRET_KEY).'
complete -c carillon-nse -n '__carillon_nse_command readback' -l ca-file -r -F -d 'Extra certificate authorities to trust (tests, staging). Verification stays on.'
complete -c carillon-nse -n '__carillon_nse_command readback' -l format -x -a 'json text' -d 'JSON Lines, or text with the opens drawn as bars (default json).'
complete -c carillon-nse -n '__carillon_nse_command readback' -l max-attempts -x -d 'Requests per read at most, the first included (default 5).'
complete -c carillon-nse -n '__carillon_nse_command readback' -l deadline -x -d 'Wall time for every read, every wait included (default 60).'
complete -c carillon-nse -n '__carillon_nse_command readback' -l help -d 'Show this help.'

complete -c carillon-nse -n '__carillon_nse_command summary' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command summary' -a 'merge'
complete -c carillon-nse -n '__carillon_nse_command summary' -F

complete -c carillon-nse -n '__carillon_nse_command merge' -l lines -r -F -d 'Write the lines, in input order, to FILE instead of standard output.'
complete -c carillon-nse -n '__carillon_nse_command merge' -l summary -r -F -d 'Also write the campaign summary, as process --summary writes it for one run.'
complete -c carillon-nse -n '__carillon_nse_command merge' -l report -r -F -d 'Also write the report page, as process --report writes it for one run.'
complete -c carillon-nse -n '__carillon_nse_command merge' -l format -x -a 'json junit' -d 'JSON Lines, or JUnit XML (one test case per payload) on standard output, as process prints them (default json).'
complete -c carillon-nse -n '__carillon_nse_command merge' -l fail-on -x -d 'Exit 2 when a merged outcome is one of these comma-separated reason codes (\'fallback\': all but attached), or a request\'s apns-refused or not-shown.'
complete -c carillon-nse -n '__carillon_nse_command merge' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command merge' -F

complete -c carillon-nse -n '__carillon_nse_command doctor' -l format -x -a 'json text' -d 'One JSON document, or a readable report for a person (default json).'
complete -c carillon-nse -n '__carillon_nse_command doctor' -l at -x -d 'The instant provisioning profiles are judged at, e.g. 2026-08-20T09:16:44Z (default now).'
complete -c carillon-nse -n '__carillon_nse_command doctor' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command doctor' -F

complete -c carillon-nse -n '__carillon_nse_command completions' -l help -d 'Show this help.'
complete -c carillon-nse -n '__carillon_nse_command completions' -a 'bash zsh fish'
