import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { readMultipartBody, type MultipartOptions } from '@fieldhouse/http';
import { errorMiddleware, payloadTooLarge, ProblemError } from '@fieldhouse/problem';
import { testLogger } from '@fieldhouse/testkit';

/** An app answering what readMultipartBody read (files as text) or its problem. */
function appWith(options: MultipartOptions) {
  const app = express();
  app.post('/upload', async (req, res) => {
    const body = await readMultipartBody(req, options);
    res.json({
      fields: Object.fromEntries(body.fields),
      files: body.files.map((f) => ({ ...f, data: f.data.toString('utf8') })),
    });
  });
  app.use(errorMiddleware(testLogger('multipart')));
  return app;
}

describe('http multipart intake (readMultipartBody)', () => {
  const csvUpload: MultipartOptions = { limits: { fileBytes: 64, files: 1 }, fileFields: ['file'] };

  it('reads text fields and a file part with its name, file name, type and content', async () => {
    const res = await request(appWith(csvUpload))
      .post('/upload')
      .field('note', 'hello')
      .attach('file', Buffer.from('nom,email\n'), { filename: 'guests.csv', contentType: 'text/csv' })
      .expect(200);
    expect(res.body.fields).to.deep.equal({ note: 'hello' });
    expect(res.body.files).to.deep.equal([
      { field: 'file', filename: 'guests.csv', mimeType: 'text/csv', data: 'nom,email\n' },
    ]);
  });

  it('reads a body with no file part as no files', async () => {
    const res = await request(appWith(csvUpload)).post('/upload').field('note', 'x').expect(200);
    expect(res.body.files).to.deep.equal([]);
  });

  it('accepts file parts of any name when fileFields is not given', async () => {
    const app = appWith({ limits: { fileBytes: 64, files: 3 } });
    const res = await request(app)
      .post('/upload')
      .attach('a1b2', Buffer.from('one'), 'one.png')
      .attach('c3d4', Buffer.from('two'), 'two.png')
      .expect(200);
    expect(res.body.files.map((f: { field: string }) => f.field)).to.deep.equal(['a1b2', 'c3d4']);
  });

  it('answers 413 for a file larger than the limit', async () => {
    const res = await request(appWith(csvUpload))
      .post('/upload')
      .attach('file', Buffer.alloc(65, 'x'), 'big.csv')
      .expect(413);
    expect(res.body.detail).to.contain('larger than the limit of 64 bytes');
  });

  it('answers with the caller’s problem for a file over the limit when one is given', async () => {
    const app = appWith({
      limits: { fileBytes: 4, files: 1 },
      fileTooLarge: (field) => payloadTooLarge(`Photo ${field} too big.`, { code: 'photo_too_large' }),
    });
    const res = await request(app).post('/upload').attach('p', Buffer.alloc(5), 'p.png').expect(413);
    expect(res.body.code).to.equal('photo_too_large');
  });

  it('answers 413 for more files than allowed', async () => {
    await request(appWith(csvUpload))
      .post('/upload')
      .attach('file', Buffer.from('a'), 'a.csv')
      .attach('file', Buffer.from('b'), 'b.csv')
      .expect(413);
  });

  it('answers with the caller’s problem for too many parts when one is given', async () => {
    const app = appWith({
      ...csvUpload,
      tooManyParts: () => payloadTooLarge('Only one file.', { code: 'one' }),
    });
    const res = await request(app)
      .post('/upload')
      .attach('file', Buffer.from('a'), 'a.csv')
      .attach('file', Buffer.from('b'), 'b.csv')
      .expect(413);
    expect(res.body.code).to.equal('one');
  });

  it('answers 413 for a text field larger than its limit', async () => {
    const app = appWith({ limits: { fileBytes: 8, files: 1, fieldBytes: 4 } });
    const res = await request(app).post('/upload').field('submission', 'too long').expect(413);
    expect(res.body.detail).to.equal('The submission part is too large.');
  });

  it('answers 400 for a file part under a name not in fileFields', async () => {
    const res = await request(appWith(csvUpload))
      .post('/upload')
      .attach('other', Buffer.from('a'), 'a.csv')
      .expect(400);
    expect(res.body.detail).to.contain('other');
  });

  it('answers 400 for a multipart content type without a boundary', async () => {
    await request(appWith(csvUpload))
      .post('/upload')
      .set('content-type', 'multipart/form-data')
      .send('whatever')
      .expect(400);
  });

  it('answers 400 for a body that is not multipart', async () => {
    await request(appWith(csvUpload)).post('/upload').send({ a: 1 }).expect(400);
  });

  it('answers 400 for a multipart stream cut before its end', async () => {
    await request(appWith(csvUpload))
      .post('/upload')
      .set('content-type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc')
      .expect(400);
  });
});

describe('http multipart intake: a client gone mid-upload', () => {
  it('settles with 400 request_aborted instead of leaving the handler waiting', async () => {
    let settled!: (outcome: unknown) => void;
    const outcome = new Promise<unknown>((resolve) => (settled = resolve));
    const server = createServer((req, res) => {
      readMultipartBody(req as express.Request, { limits: { fileBytes: 1024 * 1024, files: 1 } }).then(
        (body) => settled(body),
        (err: unknown) => settled(err),
      );
      res.on('close', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nnom,email\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const err = (await outcome) as ProblemError;
    server.close();
    expect(err).to.be.instanceOf(ProblemError);
    expect(err).to.include({ status: 400, code: 'request_aborted' });
  });
});
