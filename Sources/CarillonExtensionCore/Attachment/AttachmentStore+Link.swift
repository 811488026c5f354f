extension AttachmentStore {
    /// Publishes another attachment file with the bytes of `source` (a verified file of this store):
    /// a hard link under a new name made here (`link(2)`: no byte is copied, the mode 0600 is the
    /// source's), or, where the file system refuses links, a copy streamed through a partial file
    /// (removed if the copy or its publishing fails).
    ///
    /// - Throws: an ``Outcome`` with ``Reason/storage``.
    func publishLink(of source: String, type: ImageType, byteCount: Int) throws(Outcome) -> NotificationAttachment {
        let identifier = "image-\(FileSystem.uniqueToken())"
        let path = FileSystem.join(directory, "\(identifier).\(type.fileExtension)")
        if FileSystem.hardLink(source, to: path) {
            return NotificationAttachment(identifier: identifier, path: path, type: type, byteCount: byteCount)
        }
        let partial = try createPartialFile()
        do throws(FileSystemError) {
            try FileSystem.readChunks(ofRegularFile: source) { (piece) throws(FileSystemError) -> Bool in
                try partial.write(UnsafeRawBufferPointer(piece))
                return true
            }
        } catch {
            partial.discard()
            throw Outcome(.storage, "cannot copy the shared image into its attachment file: \(error.reason)")
        }
        return try partial.publish(type: type, byteCount: byteCount)
    }
}
