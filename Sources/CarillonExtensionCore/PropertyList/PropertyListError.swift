/// A property list that cannot be read: which form, and what is wrong with it (and where, as an offset
/// or a line), e.g. "binary property list: object 3 refers to object 9 of 4" (``ReaderError``).
package typealias PropertyListError = ReaderError<PropertyListReading>

/// The property list readers (``PropertyListReader``), as ``ReaderError`` tells them apart.
package enum PropertyListReading: ReaderKind {
    package static let code = ReaderCode.propertyList
}
