/// From a frame to the regions where QR codes probably are: threshold, find finder patterns,
/// group them. About 1 ms at 640x480 and 2 ms at 1280x720 (release build), where one plain
/// zbar pass over the frame costs 9 and 25 ms.
struct CodeLocator: Sendable {
    /// Noise level (``GrayFrame/noiseLevel()``) from which the frame is smoothed before
    /// thresholding. The public corpus's noisy frames measure 10-19, all others 1-4.
    let noisyFrom = 6

    func candidates(in frame: GrayFrame) -> [CodeCandidate] {
        let noise = frame.noiseLevel()
        // A pixel must be darker than its neighbourhood by more than the noise to count as
        // dark. Thresholding at the mean turned flat noisy paper into specks (21 decoy patterns
        // per frame on the noisy frames of the public corpus) and the faint texture of
        // low-contrast frames too (up to 200 patterns, 10 ms to locate); 1.25 x the noise level
        // leaves 1-15, and read 6 more codes than no offset.
        let image = BinaryImage(thresholding: frame, smoothing: noise >= noisyFrom, offset: noise * 5 / 4)
        return CodeCandidate.group(FinderLocator().locate(in: image), in: image)
    }
}
