import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Card } from '../../shared/ui/Card';
import { useSaveMemory } from './api';
import { categoryFromParam } from './categories';
import { MemoryForm } from './MemoryForm';
import { MemoryHeader, memoryPageClass } from './MemoryHeader';

function NewMemory({ category }: { category: NonNullable<ReturnType<typeof categoryFromParam>> }) {
  const { t } = useTranslation('memories');
  const navigate = useNavigate();
  const save = useSaveMemory(category);
  const back = `/memories?category=${category}`;
  return (
    <div className={memoryPageClass}>
      <MemoryHeader title={t(`new.${category}`)} back={back} />
      <Card>
        <MemoryForm
          category={category}
          busy={save.isPending}
          onCancel={() => void navigate(back)}
          onSubmit={(body) =>
            save.mutate(body, {
              // Straight to the new memory, where its photos are added.
              onSuccess: (memory) =>
                void navigate(`/memories/${category}/${memory.memory_uuid}`, { replace: true }),
            })
          }
        />
      </Card>
    </div>
  );
}

/** docs/product.md §2 memories/{category}/new. */
export default function NewMemoryPage() {
  const category = categoryFromParam(useParams().category);
  if (!category) return <Navigate to="/memories" replace />;
  return <NewMemory category={category} />;
}
