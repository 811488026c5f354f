import Synchronization

extension CertificateJudgement {
    /// What a judgement of a recorded chain depends on, all of it: the same question has the same
    /// verdict (the trust store is built once per CA file and recorded trust for the process).
    struct Question: Hashable, Sendable {
        var chain: [[UInt8]]
        var host: String
        var at: Int64
        var extraCAFile: String?
        var extraTrust: [[UInt8]]
    }

    /// The verdicts given so far in this process, for a replay of many recordings of the same servers
    /// (a suite of regression recordings): parsing and verifying a chain with OpenSSL is most of a
    /// small recording's replay. Bounded: forgotten all at once when full.
    private static let verdicts = Mutex<[Question: Verdict]>([:])
    private static let capacity = 256

    static func remembered(_ question: Question) -> Verdict? {
        verdicts.withLock { $0[question] }
    }

    static func remember(_ verdict: Verdict, for question: Question) {
        verdicts.withLock { verdicts in
            if verdicts.count >= capacity { verdicts.removeAll(keepingCapacity: true) }
            verdicts[question] = verdict
        }
    }
}
