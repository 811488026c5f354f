/// Which of an enqueue's events are new, given what is queued: the decision the enqueue takes under
/// the lock, before anything is written. Pure.
///
/// An event is new unless an event of its (type, delivery id) is queued or comes earlier in the list
/// (the first of two is the one written). The others are added false, as the queued one is kept.
struct EnqueueSelection: Equatable {
    /// For each event, in order: false (not added) for one already queued or repeated, nil for a new
    /// one, whose result is its file's.
    var results: [Result<Bool, FileSystemError>?]
    /// The indices of the new events, in order: they are numbered and written in this order.
    var fresh: [Int]
    /// Whether an event was found queued (not only repeated within the list): its entry may need the
    /// directory's fsync that its writer did not live to make.
    var foundQueued: Bool

    init(_ events: [Event], queued: Set<EventKey>) {
        results = Array(repeating: nil, count: events.count)
        fresh = []
        foundQueued = false
        var seen = Set<EventKey>()
        for (index, event) in events.enumerated() {
            let key = EventKey(event)
            if !seen.insert(key).inserted {
                results[index] = .success(false)
            } else if queued.contains(key) {
                results[index] = .success(false)
                foundQueued = true
            } else {
                fresh.append(index)
            }
        }
    }
}
