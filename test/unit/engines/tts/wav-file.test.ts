import { pcmWav, readWavInfo, silentWav } from '../../../../src/engines/tts/wav-file';

describe('wav-file', () => {
  it('reads back the format and length of a written WAV', () => {
    const info = readWavInfo(silentWav(16000, 8000));
    expect(info).toEqual({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: 16000, dataOffset: 44, durationSeconds: 0.5 });
  });

  it('wraps given samples in a header that reads back', () => {
    const pcm = Buffer.alloc(6);
    pcm.writeInt16LE(-2, 0);
    pcm.writeInt16LE(7, 4);
    const bytes = pcmWav(22050, pcm);
    const info = readWavInfo(bytes);
    expect(info).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16, dataBytes: 6, dataOffset: 44 });
    expect(bytes.readInt16LE(info.dataOffset)).toBe(-2);
    expect(bytes.readInt16LE(info.dataOffset + 4)).toBe(7);
  });

  it('writes a valid empty WAV', () => {
    const bytes = silentWav(22050);
    expect(bytes).toHaveLength(44);
    expect(readWavInfo(bytes).durationSeconds).toBe(0);
  });

  it('skips unknown chunks and trusts the file when the data size is a streaming placeholder', () => {
    const base = silentWav(8000, 800);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')]); // odd size → padded
    const withList = Buffer.concat([base.subarray(0, 36), list, base.subarray(36)]);
    withList.writeUInt32LE(0x7fffffff, 36 + list.length + 4);
    expect(readWavInfo(withList).durationSeconds).toBeCloseTo(0.1, 6);
    expect(readWavInfo(withList).dataOffset).toBe(44 + list.length);
  });

  it('rejects what is not a WAV', () => {
    expect(() => readWavInfo(Buffer.from('ID3 this is an mp3'))).toThrow(/RIFF/);
    expect(() => readWavInfo(silentWav(8000).subarray(0, 36))).toThrow(/data chunk/);
  });
});
