#!/bin/sh
# A background push: never displayed, so the extension never runs, whatever the payload says.
TOKEN=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
curl --http2 \
  --header "authorization: bearer $JWT" \
  --header "apns-topic: com.example.carillon-demo" \
  --header "apns-push-type: background" \
  --header "apns-priority: 5" \
  --data '{"aps":{"alert":"x","mutable-content":1},"carillon":{"image":"{{BASE_URL}}/img/png"}}' \
  "https://api.sandbox.push.apple.com/3/device/$TOKEN"
