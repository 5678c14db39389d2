/// From a frame to the regions where QR codes probably are: threshold, find finder patterns,
/// group them. About 1.5 ms at 640x480 and 4 ms at 1280x720 (release build), where one plain
/// zbar pass over the frame costs 9 and 25 ms.
struct CodeLocator: Sendable {
    /// Noise level (``GrayFrame/noiseLevel()``) from which the frame is smoothed before
    /// thresholding. The public corpus's noisy frames measure 10-19, all others 1-4.
    var noisyFrom = 6
    var offsetQuarters = 5

    func candidates(in frame: GrayFrame) -> [CodeCandidate] {
        let noise = frame.noiseLevel()
        let noisy = noise >= noisyFrom
        // On noisy frames a pixel must be darker than its neighbourhood by more than the noise
        // to count as dark: thresholding at the mean turned flat noisy paper into specks and
        // found 21 decoy patterns per frame there; 1.25 x the noise level leaves about one.
        let image = BinaryImage(thresholding: frame, smoothing: noisy, offset: noise * offsetQuarters / 4)
        return CodeCandidate.group(FinderLocator().locate(in: image), in: image)
    }
}
