T=com.example.app
curl -H "apns-topic: $T" -H "authorization: bearer $(cat jwt)" \
  --data $'{"aps":{"alert":"x\u00e9"}}' https://api.sandbox.push.apple.com/3/device/${TOKEN}
