/// Where a download's image body goes: each piece of the decoded body as it arrives; returns false to
/// stop the transfer. It is the seam's way back up: the layer that asks for an image hands one down
/// (`ImageSource/` feeds the verifier and writes the file through it), and the transport below calls it
/// without naming anything above it.
typealias DownloadSink = (UnsafeRawBufferPointer) -> Bool
