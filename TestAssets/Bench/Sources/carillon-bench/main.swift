// carillon-bench: the in-process half of TestAssets/Bench/run.sh.
//
// Times the parts of the pipeline that are not the transfer, against the core library of the working
// tree, and prints one JSON object on standard output. Modes:
//
//   overhead --work DIR --iterations N IMAGE...   parse, route, receipt, attach, verify, publish
//   expire   --url URL --ca-file PEM --after S --reps N --work DIR
//                                                  timeWillExpire() -> content handler, while stalled
//   populate --container DIR --count N             writes N receipts (setup for a drain)
//   drain    --container DIR --queue DIR           ReceiptDrain.drain, timed
//   verify   --reps N FILE...                      ImageStreamVerifier, and ImageVerifier.verify(fileAt:), alone
//   pipeline --url URL --ca-file PEM --reps N --work DIR
//                                                  NotificationService end to end in a warm process
//
// It never opens a connection except in `expire` and `pipeline`, to the URL it is given (the script passes the local
// server's handshake-stall port on 127.0.0.1). One file per mode; BenchSupport.swift has what they share.

// MARK: - main

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    fail("usage: carillon-bench overhead|expire|populate|drain|verify|pipeline [options]")
}
let options = Options(arguments.dropFirst(2))
switch arguments[1] {
case "overhead": overhead(options)
case "expire": expire(options)
case "populate": populate(options)
case "drain": drain(options)
case "verify": verify(options)
case "pipeline": pipeline(options)
default: fail("unknown mode \(arguments[1])")
}
