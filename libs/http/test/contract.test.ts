import { expect } from 'chai';
import Joi from 'joi';
import request from 'supertest';
import {
  contractRouter,
  createBaseApp,
  defineRoute,
  finishApp,
  jsonBody,
  openApiDocument,
  pathIdSchema,
  pathUuidSchema,
  takeContractViolations,
  type AnyRouteSpec,
} from '@fieldhouse/http';
import { forbidden } from '@fieldhouse/problem';
import { testLogger } from '@fieldhouse/testkit';

interface NewNote {
  text: string;
  pinned?: boolean;
}

const Note = Joi.object({
  id: Joi.number().integer().required(),
  text: Joi.string().required(),
  pinned: Joi.boolean().required(),
}).id('Note');

/** A tiny service: one declared answer per route, one route that breaks its own declaration. */
function notesRoutes(leak: { field?: string; status?: number }): AnyRouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/notes',
      operationId: 'createNote',
      summary: 'Create a note',
      body: Joi.object<NewNote>({
        text: Joi.string().trim().min(1).max(20).required(),
        pinned: Joi.boolean(),
      }),
      responses: { 201: { description: 'Created', body: Note } },
      problems: { 422: 'Invalid text' },
      handler: ({ body }) => ({
        status: leak.status ?? 201,
        body: {
          id: 1,
          text: body.text,
          pinned: body.pinned ?? false,
          ...(leak.field ? { [leak.field]: 'x' } : {}),
        },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/notes/{note_id}',
      operationId: 'getNote',
      summary: 'A note',
      params: Joi.object({ note_id: pathIdSchema() }),
      notFound: 'No note has this id.',
      responses: { 200: { description: 'The note', body: Note } },
      problems: { 404: 'Unknown note' },
      handler: ({ params }) => ({ body: { id: params.note_id, text: 'hello', pinned: false } }),
    }),
  ];
}

function notesApp(leak: { field?: string; status?: number } = {}) {
  const logger = testLogger('contract');
  const routes = notesRoutes(leak);
  const document = openApiDocument({ title: 'Notes', description: 'Test notes', routes });
  const { app } = createBaseApp({ logger });
  app.use(jsonBody('16kb'), contractRouter(routes, undefined, document));
  return { app: finishApp(app, logger), document };
}

describe('http contract: routes declared once, documents generated, answers checked', () => {
  afterEach(() => {
    // The violations these tests provoke on purpose are theirs; none may reach the root hook.
    takeContractViolations();
  });

  it('generates the operation, its parameters, body, answers and problems from the declaration', () => {
    const { document } = notesApp();
    const create = document.paths['/notes']!.post as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading the generated document
    expect(create.operationId).to.equal('createNote');
    expect(create.requestBody.content['application/json'].schema.required).to.deep.equal(['text']);
    expect(create.responses['201'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/Note',
    });
    expect(create.responses['422'].content['application/problem+json'].schema).to.deep.equal({
      $ref: '#/components/schemas/Problem',
    });
    expect(document.components.schemas.Note).to.include({ additionalProperties: false });
    const get = document.paths['/notes/{note_id}']!.get as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading the generated document
    expect(get.parameters[0]).to.include({ in: 'path', name: 'note_id', required: true });
  });

  it('documents path parameter patterns as plain JSON Schema regular expressions (no flags)', () => {
    const routes = [
      defineRoute({
        method: 'get',
        path: '/things/{thing_id}',
        operationId: 'getThing',
        summary: 'A thing',
        params: Joi.object({ thing_id: pathUuidSchema() }),
        responses: { 200: { description: 'The thing' } },
        handler: () => ({ status: 200 }),
      }),
    ];
    const document = openApiDocument({ title: 'Things', description: 'Test', routes });
    const [param] = (
      document.paths['/things/{thing_id}']!.get as { parameters: { schema: { pattern: string } }[] }
    ).parameters;
    const pattern = new RegExp(param!.schema.pattern);
    expect(pattern.test('0F8FAD5B-D9CB-469F-A165-70867728950E')).to.equal(true);
    expect(pattern.test('0f8fad5b-d9cb-469f-a165-7086772895')).to.equal(false);
  });

  it('parses the body with its schema: unknown members dropped, a bad one is a 422 naming the field', async () => {
    const { app } = notesApp();
    const ok = await request(app).post('/notes').send({ text: ' hi ', other: 1 }).expect(201);
    expect(ok.body).to.deep.equal({ id: 1, text: 'hi', pinned: false });
    const bad = await request(app).post('/notes').send({ text: '' }).expect(422);
    expect(bad.body.errors).to.have.property('text');
    expect(takeContractViolations()).to.deep.equal([]);
  });

  it('answers a path parameter that fails its schema with a 404 carrying the declared detail', async () => {
    const { app } = notesApp();
    const res = await request(app).get('/notes/007').expect(404);
    expect(res.body.detail).to.equal('No note has this id.');
    expect(res.body.errors).to.have.property('note_id');
    const ok = await request(app).get('/notes/7').expect(200);
    expect(ok.body.id).to.equal(7);
    expect(takeContractViolations()).to.deep.equal([]);
  });

  it('parses a by-use-case query and body only when read: a caller refused first never gets the 422', async () => {
    const logger = testLogger('contract');
    const routes = [
      defineRoute({
        method: 'put',
        path: '/boxes/{box_id}',
        operationId: 'putBox',
        summary: 'A box only its owner may fill',
        params: Joi.object({ box_id: pathIdSchema() }),
        query: Joi.object({ page: Joi.number().integer().min(1).default(1) }),
        parseQuery: 'by-use-case',
        body: Joi.object({ label: Joi.string().required() }),
        parseBody: 'by-use-case',
        responses: {
          200: {
            description: 'The box',
            body: Joi.object({ page: Joi.number().required(), label: Joi.string().required() }),
          },
        },
        problems: { 403: 'Not the owner', 422: 'Bad page or label' },
        handler: ({ params, readQuery, readBody }) => {
          if (params.box_id !== 1) throw forbidden('Not your box.');
          return { body: { page: readQuery().page, label: readBody().label } };
        },
      }),
    ];
    const document = openApiDocument({ title: 'Boxes', description: 'Test', routes });
    const { app } = createBaseApp({ logger });
    app.use(jsonBody('16kb'), contractRouter(routes, undefined, document));
    const served = finishApp(app, logger);
    await request(served).put('/boxes/2?page=0').send({}).expect(403);
    const bad = await request(served).put('/boxes/1?page=0').send({}).expect(422);
    expect(bad.body.errors).to.have.property('page');
    const ok = await request(served).put('/boxes/1').send({ label: 'tools' }).expect(200);
    expect(ok.body).to.deep.equal({ page: 1, label: 'tools' });
    expect(takeContractViolations()).to.deep.equal([]);
  });

  it('records an answer carrying a field its document does not declare', async () => {
    const { app } = notesApp({ field: 'secret' });
    await request(app).post('/notes').send({ text: 'hi' }).expect(201);
    const violations = takeContractViolations();
    expect(violations).to.have.length(1);
    expect(violations[0]).to.contain('POST /notes → 201').and.contain('must NOT have additional properties');
  });

  it('records an answer whose status the route does not declare', async () => {
    const { app } = notesApp({ status: 202 });
    await request(app).post('/notes').send({ text: 'hi' }).expect(202);
    expect(takeContractViolations()).to.deep.equal(['POST /notes → 202: status 202 is not declared']);
  });
});
