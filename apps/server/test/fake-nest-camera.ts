import type { RTCPeerConnection as Peer } from 'werift';

/**
 * werift peers that stay on 127.0.0.1: sockets bound to it, and only loopback pairs tried (the machine's
 * other interfaces are still listed as candidates by werift, never used).
 */
export const LOOPBACK_PEER = {
  iceUseIpv6: false,
  iceInterfaceAddresses: { udp4: '127.0.0.1' },
  iceAdditionalHostAddresses: ['127.0.0.1'],
  iceFilterCandidatePair: (pair: { localCandidate: { host: string }; remoteCandidate: { host: string } }) =>
    pair.localCandidate.host === '127.0.0.1' && pair.remoteCandidate.host === '127.0.0.1',
};

/** The m-lines of an offer, in order: Google requires audio, video and a data channel (application). */
export const mediaOrder = (sdp: string) =>
  sdp
    .split(/\r?\n/)
    .filter((l) => l.startsWith('m='))
    .map((l) => l.slice(2).split(' ')[0]);

/** A Nest camera's side of a WebRTC stream: answers the offer and sends video RTP once connected. */
export interface FakeCameraPeer {
  answerSdp: string;
  /** RTP packets written so far. */
  sent: () => number;
  close: () => Promise<void>;
}

/**
 * Plays the camera as Google's WebRTC endpoint would: a werift peer answers the browser's offer with its
 * video sendonly and writes VP8 RTP packets (a fixed keyframe header, 30 a second) once ICE connects. The
 * packets are not decodable pictures: the tests count that RTP arrives, not what it shows.
 */
export async function startFakeCameraPeer(offerSdp: string): Promise<FakeCameraPeer> {
  const { RTCPeerConnection, MediaStreamTrack, RtpHeader, RtpPacket } = await import('werift');
  const pc: Peer = new RTCPeerConnection(LOOPBACK_PEER);
  const track = new MediaStreamTrack({ kind: 'video' });
  await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
  const video = pc.getTransceivers().find((t) => t.kind === 'video');
  if (!video) throw new Error('the offer has no video');
  video.setDirection('sendonly');
  await video.sender.replaceTrack(track);
  await pc.setLocalDescription(await pc.createAnswer());
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  pc.connectionStateChange.subscribe((state) => {
    if (state !== 'connected' || timer) return;
    timer = setInterval(() => {
      sent += 1;
      const header = new RtpHeader({
        payloadType: 96,
        sequenceNumber: sent & 0xffff,
        timestamp: (sent * 3000) >>> 0,
        marker: true,
        ssrc: 0x4e455354,
      });
      // VP8 payload descriptor (start of partition) and a keyframe's start code.
      track.writeRtp(new RtpPacket(header, Buffer.from([0x10, 0x00, 0x00, 0x9d, 0x01, 0x2a, 0x10, 0x00])));
    }, 33);
  });
  return {
    answerSdp: pc.localDescription!.sdp,
    sent: () => sent,
    close: async () => {
      clearInterval(timer);
      await pc.close();
    },
  };
}
